// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMarketERC20, MarketClones, MarketSafeTransfer} from "./MarketCommon.sol";

/// An Aerodrome v2-style pool with mainnet's events and views. Volatile pools keep x * y; stable pools keep
/// x^3 * y + y^3 * x on reserves normalised to 18 decimals. The fee (0.3% volatile, 0.05% stable) is taken
/// from the input and stays in the pool; liquidity shares are plain balances. As Aerodrome's, each pool is
/// an ERC-1167 clone of one implementation, initialized by its factory (so its identity is storage).
contract AerodromePool {
    using MarketSafeTransfer for address;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Swap(
        address indexed sender,
        address indexed to,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out
    );
    event Sync(uint256 reserve0, uint256 reserve1);

    uint256 public constant MINIMUM_LIQUIDITY = 1000;
    uint256 private constant ONE = 1e18;

    address public factory;
    address public token0;
    address public token1;
    bool public stable;
    uint256 private scale0;
    uint256 private scale1;

    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public blockTimestampLast;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    bool private locked;

    modifier lock() {
        require(!locked, "locked");
        locked = true;
        _;
        locked = false;
    }

    /// Once, by the factory that cloned it.
    function initialize(address token0_, address token1_, bool stable_) external {
        require(factory == address(0), "already initialized");
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        stable = stable_;
        scale0 = 10 ** (18 - IMarketERC20(token0_).decimals());
        scale1 = 10 ** (18 - IMarketERC20(token1_).decimals());
    }

    /// Fee in basis points, as Aerodrome's defaults.
    function fee() public view returns (uint256) {
        return stable ? 5 : 30;
    }

    function getReserves() external view returns (uint256, uint256, uint256) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// The output for `amountIn` of `tokenIn` at the current reserves, after the fee.
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256) {
        require(tokenIn == token0 || tokenIn == token1, "not a pool token");
        bool zeroIn = tokenIn == token0;
        amountIn -= amountIn * fee() / 10_000;
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (reserve0, reserve1) : (reserve1, reserve0);
        if (!stable) return amountIn * reserveOut / (reserveIn + amountIn);
        (uint256 scaleIn, uint256 scaleOut) = zeroIn ? (scale0, scale1) : (scale1, scale0);
        uint256 target = _curve(reserveIn * scaleIn, reserveOut * scaleOut);
        uint256 y = _solveY((reserveIn + amountIn) * scaleIn, target, reserveOut * scaleOut);
        return (reserveOut * scaleOut - y) / scaleOut;
    }

    /// Mints shares for the tokens sent to the pool since the last sync.
    function mint(address to) external lock returns (uint256 liquidity) {
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        if (totalSupply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mintShares(address(0), MINIMUM_LIQUIDITY);
        } else {
            uint256 share0 = amount0 * totalSupply / reserve0;
            uint256 share1 = amount1 * totalSupply / reserve1;
            liquidity = share0 < share1 ? share0 : share1;
        }
        require(liquidity > 0, "insufficient liquidity minted");
        _mintShares(to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// Sends the outputs, then checks that the inputs already received (less the fee) keep the invariant.
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external lock {
        require(data.length == 0, "flash swaps unsupported");
        require(amount0Out > 0 || amount1Out > 0, "insufficient output amount");
        require(amount0Out < reserve0 && amount1Out < reserve1, "insufficient liquidity");
        require(to != token0 && to != token1, "invalid to");
        if (amount0Out > 0) token0.safeTransfer(to, amount0Out);
        if (amount1Out > 0) token1.safeTransfer(to, amount1Out);
        (uint256 amount0In, uint256 amount1In) = _takeInputs(amount0Out, amount1Out);
        emit Swap(msg.sender, to, amount0In, amount1In, amount0Out, amount1Out);
    }

    /// Aligns the reserves with the balances (tokens sent without a swap or mint).
    function sync() external lock {
        _update(token0.balanceOf(address(this)), token1.balanceOf(address(this)));
    }

    /// The inputs implied by the balances after the outputs left; reverts unless they keep the invariant.
    function _takeInputs(uint256 amount0Out, uint256 amount1Out) private returns (uint256 amount0In, uint256 amount1In) {
        (uint256 r0, uint256 r1) = (reserve0, reserve1);
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        amount0In = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        amount1In = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "insufficient input amount");
        uint256 kAfter = _k(balance0 - amount0In * fee() / 10_000, balance1 - amount1In * fee() / 10_000);
        require(kAfter >= _k(r0, r1), "K");
        _update(balance0, balance1);
    }

    function _k(uint256 x, uint256 y) private view returns (uint256) {
        return stable ? _curve(x * scale0, y * scale1) : x * y;
    }

    /// x^3 * y + y^3 * x for 18-decimal x and y, in 18 decimals.
    function _curve(uint256 x, uint256 y) private pure returns (uint256) {
        uint256 a = x * y / ONE;
        uint256 b = x * x / ONE + y * y / ONE;
        return a * b / ONE;
    }

    /// d(_curve)/dy = 3 * x * y^2 + x^3, in 18 decimals.
    function _curveSlope(uint256 x, uint256 y) private pure returns (uint256) {
        return 3 * x * (y * y / ONE) / ONE + x * x / ONE * x / ONE;
    }

    /// The least y with _curve(x, y) >= target, by Newton's method from `y` (which lies above it: the
    /// input side grew). The curve is convex in y, so steps from above never undershoot the root.
    function _solveY(uint256 x, uint256 target, uint256 y) private pure returns (uint256) {
        for (uint256 i = 0; i < 255; i++) {
            uint256 k = _curve(x, y);
            if (k < target) {
                y += 1;
                continue;
            }
            uint256 dy = (k - target) * ONE / _curveSlope(x, y);
            if (dy == 0) return y;
            y -= dy;
        }
        revert("no convergence");
    }

    function _update(uint256 balance0, uint256 balance1) private {
        reserve0 = balance0;
        reserve1 = balance1;
        blockTimestampLast = block.timestamp;
        emit Sync(balance0, balance1);
    }

    function _mintShares(address to, uint256 value) private {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}

/// Creates AerodromePools per (token pair, stable or volatile) as Aerodrome's PoolFactory does: ERC-1167
/// clones of `implementation` at CREATE2 salt keccak256(abi.encodePacked(token0, token1, stable)).
contract AerodromePoolFactory {
    event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256);

    address public immutable implementation;

    mapping(address => mapping(address => mapping(bool => address))) private pools;
    mapping(address => bool) public isPool;
    address[] public allPools;

    constructor(address implementation_) {
        implementation = implementation_;
    }

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    function getPool(address tokenA, address tokenB, bool stable) external view returns (address) {
        return pools[tokenA][tokenB][stable];
    }

    function createPool(address tokenA, address tokenB, bool stable) external returns (address pool) {
        require(tokenA != tokenB, "same address");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "zero address");
        require(pools[token0][token1][stable] == address(0), "pool already exists");
        pool = MarketClones.cloneDeterministic(implementation, keccak256(abi.encodePacked(token0, token1, stable)));
        AerodromePool(pool).initialize(token0, token1, stable);
        pools[token0][token1][stable] = pool;
        pools[token1][token0][stable] = pool;
        isPool[pool] = true;
        allPools.push(pool);
        emit PoolCreated(token0, token1, stable, pool, allPools.length);
    }
}
