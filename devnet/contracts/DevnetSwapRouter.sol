// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketTickMath} from "./MarketV3Math.sol";
import {AerodromePool} from "./Aerodrome.sol";
import {UniswapV2Pair} from "./UniswapV2.sol";
import {MarketV3StylePool} from "./MarketV3StylePool.sol";
import {SlipstreamCLFactory} from "./Slipstream.sol";
import {UniswapV3Factory} from "./UniswapV3.sol";
import {IDevnetPoolManagerPayer, ModifyLiquidityParams, PoolKey, SwapParams, UniswapV4PoolManager} from "./UniswapV4.sol";

/// One-transaction liquidity changes and swaps on the devnet pools (V2, Aerodrome, V3 and Slipstream CL
/// pools alike, and the V4 PoolManager), paid from the caller's approvals (and, for native ETH, the call's value, the rest of which
/// is refunded): what seeding, the traffic generator and tests use. The `...Exact` swaps take an exact input
/// or output and a price limit (0: none) and return the pool's own signed amounts, so that an `eth_call`
/// tells how much a move to a given price takes.
contract DevnetSwapRouter is IDevnetPoolManagerPayer {
    using MarketSafeTransfer for address;

    /// Base's Uniswap V4 PoolManager, where the devnet installs its fixture.
    UniswapV4PoolManager public constant POOL_MANAGER = UniswapV4PoolManager(payable(0x498581fF718922c3f8e6A244956aF099B2652b2b));

    UniswapV3Factory public immutable uniswapV3Factory;
    SlipstreamCLFactory public immutable slipstreamFactory;
    /// Who pays the PoolManager's callback in the current call.
    address private transient _v4Payer;

    constructor(UniswapV3Factory uniswapV3Factory_, SlipstreamCLFactory slipstreamFactory_) {
        uniswapV3Factory = uniswapV3Factory_;
        slipstreamFactory = slipstreamFactory_;
    }

    /// Adds liquidity to a Uniswap V2-style pair or an Aerodrome pool (both mint for tokens sent first).
    function addLiquidity(address pool, uint256 amount0, uint256 amount1, address to) external returns (uint256) {
        UniswapV2Pair pair = UniswapV2Pair(pool);
        pair.token0().safeTransferFrom(msg.sender, pool, amount0);
        pair.token1().safeTransferFrom(msg.sender, pool, amount1);
        return pair.mint(to);
    }

    function mintV3(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity, address recipient)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        return MarketV3StylePool(pool).mint(recipient, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
    }

    function swapV2(address pool, address tokenIn, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        UniswapV2Pair pair = UniswapV2Pair(pool);
        bool zeroIn = tokenIn == pair.token0();
        require(zeroIn || tokenIn == pair.token1(), "not a pool token");
        (uint256 r0, uint256 r1,) = pair.getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (r0, r1) : (r1, r0);
        amountOut = amountIn * 997 * reserveOut / (reserveIn * 1000 + amountIn * 997);
        require(amountOut >= minOut, "too little received");
        tokenIn.safeTransferFrom(msg.sender, pool, amountIn);
        pair.swap(zeroIn ? 0 : amountOut, zeroIn ? amountOut : 0, to, "");
    }

    function swapAerodrome(address pool, address tokenIn, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        AerodromePool aerodrome = AerodromePool(pool);
        amountOut = aerodrome.getAmountOut(amountIn, tokenIn);
        require(amountOut >= minOut, "too little received");
        tokenIn.safeTransferFrom(msg.sender, pool, amountIn);
        bool zeroIn = tokenIn == aerodrome.token0();
        aerodrome.swap(zeroIn ? 0 : amountOut, zeroIn ? amountOut : 0, to, "");
    }

    /// An exact-input swap with no price limit; reverts when it yields less than `minOut`.
    function swapV3(address pool, bool zeroForOne, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        (int256 amount0, int256 amount1) = _swapV3(pool, zeroForOne, true, amountIn, 0, to);
        amountOut = uint256(-(zeroForOne ? amount1 : amount0));
        require(amountOut >= minOut, "too little received");
    }

    /// A swap of exactly `amount` in (`exactInput`) or out, stopping at `sqrtPriceLimitX96` if it comes
    /// first; returns the pool's amounts (V3's signs: positive is paid into the pool).
    function swapV3Exact(
        address pool,
        bool zeroForOne,
        bool exactInput,
        uint256 amount,
        uint160 sqrtPriceLimitX96,
        address to
    ) external returns (int256 amount0, int256 amount1) {
        return _swapV3(pool, zeroForOne, exactInput, amount, sqrtPriceLimitX96, to);
    }

    /// Adds liquidity to a V4 position of the caller's (the PoolManager sees the router as owner and a salt
    /// derived from the caller and `salt`); returns the caller's deltas (V4's signs: negative is paid).
    function mintV4(PoolKey calldata key, int24 tickLower, int24 tickUpper, uint128 liquidity, bytes32 salt)
        external
        payable
        returns (int128 amount0, int128 amount1)
    {
        (amount0, amount1) = _modifyV4(key, tickLower, tickUpper, int256(uint256(liquidity)), salt);
        _refundEth();
    }

    /// Removes liquidity from the caller's V4 position and sends the caller its tokens.
    function burnV4(PoolKey calldata key, int24 tickLower, int24 tickUpper, uint128 liquidity, bytes32 salt)
        external
        returns (int128 amount0, int128 amount1)
    {
        (amount0, amount1) = _modifyV4(key, tickLower, tickUpper, -int256(uint256(liquidity)), salt);
        _forward(key, amount0, amount1, msg.sender);
    }

    /// An exact-input V4 swap with no price limit; reverts when it yields less than `minOut`.
    function swapV4(PoolKey calldata key, bool zeroForOne, uint256 amountIn, uint256 minOut, address to)
        external
        payable
        returns (uint256 amountOut)
    {
        (int128 amount0, int128 amount1) = _swapV4(key, zeroForOne, true, amountIn, 0, to);
        amountOut = uint256(int256(zeroForOne ? amount1 : amount0));
        require(amountOut >= minOut, "too little received");
    }

    /// The V4 counterpart of swapV3Exact; returns the swapper's deltas as the PoolManager's Swap event has
    /// them (V4's signs: negative is paid into the pool).
    function swapV4Exact(
        PoolKey calldata key,
        bool zeroForOne,
        bool exactInput,
        uint256 amount,
        uint160 sqrtPriceLimitX96,
        address to
    ) external payable returns (int128 amount0, int128 amount1) {
        return _swapV4(key, zeroForOne, exactInput, amount, sqrtPriceLimitX96, to);
    }

    /// Pays what the router owes the PoolManager: tokens from the payer, native ETH from the call's value.
    function payPoolManager(PoolKey calldata key, int128 amount0, int128 amount1) external {
        require(msg.sender == address(POOL_MANAGER), "not the PoolManager");
        if (amount0 < 0) _payManager(key.currency0, uint128(-amount0));
        if (amount1 < 0) _payManager(key.currency1, uint128(-amount1));
    }

    /// Native ETH from the PoolManager (outputs, removed liquidity) passes through here.
    receive() external payable {}

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        address payer = _payerFromPool(data);
        MarketV3StylePool pool = MarketV3StylePool(msg.sender);
        if (amount0Owed > 0) pool.token0().safeTransferFrom(payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) pool.token1().safeTransferFrom(payer, msg.sender, amount1Owed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        address payer = _payerFromPool(data);
        MarketV3StylePool pool = MarketV3StylePool(msg.sender);
        if (amount0Delta > 0) pool.token0().safeTransferFrom(payer, msg.sender, uint256(amount0Delta));
        if (amount1Delta > 0) pool.token1().safeTransferFrom(payer, msg.sender, uint256(amount1Delta));
    }

    function _swapV3(address pool, bool zeroForOne, bool exactInput, uint256 amount, uint160 limit, address to)
        private
        returns (int256 amount0, int256 amount1)
    {
        if (limit == 0) limit = zeroForOne ? MarketTickMath.MIN_SQRT_RATIO + 1 : MarketTickMath.MAX_SQRT_RATIO - 1;
        (amount0, amount1) =
            MarketV3StylePool(pool).swap(to, zeroForOne, _specified(exactInput, amount), limit, abi.encode(msg.sender));
    }

    function _modifyV4(PoolKey calldata key, int24 tickLower, int24 tickUpper, int256 delta, bytes32 salt)
        private
        returns (int128 amount0, int128 amount1)
    {
        _v4Payer = msg.sender;
        (int256 balanceDelta,) = POOL_MANAGER.modifyLiquidity(
            key, ModifyLiquidityParams(tickLower, tickUpper, delta, keccak256(abi.encode(msg.sender, salt))), ""
        );
        _v4Payer = address(0);
        return _split(balanceDelta);
    }

    function _swapV4(PoolKey calldata key, bool zeroForOne, bool exactInput, uint256 amount, uint160 limit, address to)
        private
        returns (int128 amount0, int128 amount1)
    {
        if (limit == 0) limit = zeroForOne ? MarketTickMath.MIN_SQRT_RATIO + 1 : MarketTickMath.MAX_SQRT_RATIO - 1;
        _v4Payer = msg.sender;
        // V4 counts an exact input negative.
        (amount0, amount1) =
            _split(POOL_MANAGER.swap(key, SwapParams(zeroForOne, -_specified(exactInput, amount), limit), ""));
        _v4Payer = address(0);
        _forward(key, amount0, amount1, to);
        _refundEth();
    }

    /// V3's amountSpecified: positive for an exact input, negative for an exact output.
    function _specified(bool exactInput, uint256 amount) private pure returns (int256) {
        require(amount > 0 && amount <= uint256(type(int256).max), "amount out of range");
        return exactInput ? int256(amount) : -int256(amount);
    }

    /// V4's BalanceDelta: amount0 in the high 128 bits, amount1 in the low 128.
    function _split(int256 balanceDelta) private pure returns (int128 amount0, int128 amount1) {
        amount0 = int128(balanceDelta >> 128);
        amount1 = int128(balanceDelta);
    }

    /// Passes on what the PoolManager paid the router (its positive deltas).
    function _forward(PoolKey calldata key, int128 amount0, int128 amount1, address to) private {
        if (amount0 > 0) key.currency0.sendCurrency(to, uint128(amount0));
        if (amount1 > 0) key.currency1.sendCurrency(to, uint128(amount1));
    }

    function _payManager(address currency, uint256 amount) private {
        if (currency == address(0)) currency.sendCurrency(address(POOL_MANAGER), amount);
        else currency.safeTransferFrom(_v4Payer, address(POOL_MANAGER), amount);
    }

    /// The router holds no ETH between calls: what the call's value did not pay goes back to the caller.
    function _refundEth() private {
        if (address(this).balance > 0) address(0).sendCurrency(msg.sender, address(this).balance);
    }

    /// Only a pool of one of the factories may pull the payer's approved tokens.
    function _payerFromPool(bytes calldata data) private view returns (address) {
        MarketV3StylePool pool = MarketV3StylePool(msg.sender);
        (address token0, address token1) = (pool.token0(), pool.token1());
        require(
            uniswapV3Factory.getPool(token0, token1, pool.fee()) == msg.sender
                || slipstreamFactory.getPool(token0, token1, pool.tickSpacing()) == msg.sender,
            "not a pool"
        );
        return abi.decode(data, (address));
    }
}
