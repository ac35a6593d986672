// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketConcentratedPool} from "./MarketConcentratedPool.sol";

/// A Uniswap V4 pool's identity: its id is keccak256(abi.encode(key)). Currency address(0) is native ETH.
struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

struct SwapParams {
    bool zeroForOne;
    /// Negative: an exact input; positive: an exact output (V4's convention, the opposite of V3's).
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

/// What the PoolManager fixture calls on its caller to be paid, in place of V4's unlock/settle/take.
interface IDevnetPoolManagerPayer {
    /// `amount0`/`amount1` are the caller's deltas (V4's signs): each negative one must reach the
    /// manager before this returns.
    function payPoolManager(PoolKey calldata key, int128 amount0, int128 amount1) external;
}

/// What `unlock` calls on its caller, as V4's IUnlockCallback.
interface IUnlockCallback {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}

/// A Uniswap V4 PoolManager fixture, installed on the devnet at Base's PoolManager address by
/// `anvil_setCode` (so it has no immutables and no constructor state). It emits mainnet's `Initialize`,
/// `ModifyLiquidity` and `Swap` events, keys pools by V4's pool id, lays `_pools` out as V4 does (slot 6,
/// V4's Pool.State) and answers `extsload`, so that V4's StateLibrary reads work on it as on mainnet.
/// Swaps use the same concentrated-liquidity math as the V3 fixture (MarketConcentratedPool).
/// Two ways to pay: the devnet's own tools call `swap` and `modifyLiquidity` directly, and are paid their
/// positive deltas at once and pay their negative ones through `payPoolManager` in the same call; inside
/// `unlock` a swap is flash-accounted as V4's (currency deltas settled by `sync`/`settle` and `take`,
/// `CurrencyNotSettled` when unlock returns with any left), which is how a V4 router, and the trade
/// simulation, trade on Base. Simplified otherwise: no protocol fees, no fee growth, no ERC-6909 claims, no
/// donate; the hooks address of a PoolKey is stored in the id and events but never called.
contract UniswapV4PoolManager {
    using MarketSafeTransfer for address;
    using MarketConcentratedPool for MarketConcentratedPool.State;

    event Initialize(
        bytes32 indexed id,
        address indexed currency0,
        address indexed currency1,
        uint24 fee,
        int24 tickSpacing,
        address hooks,
        uint160 sqrtPriceX96,
        int24 tick
    );
    event ModifyLiquidity(
        bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt
    );
    /// amount0/amount1 are the swapper's deltas, as V4 emits them: negative is what the swapper paid into
    /// the pool, positive what it received (PoolManager._swap emits Pool.swap's caller delta).
    event Swap(
        bytes32 indexed id,
        address indexed sender,
        int128 amount0,
        int128 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick,
        uint24 fee
    );

    /// A key's fee with this value marks a dynamic fee (V4's LPFeeLibrary.DYNAMIC_FEE_FLAG); it starts at 0.
    uint24 internal constant DYNAMIC_FEE_FLAG = 0x800000;
    uint24 internal constant MAX_LP_FEE = 1_000_000;

    // V4 keeps its owner, protocol fees and ERC-6909 claims in slots 0-5; StateLibrary reads `_pools` at slot 6.
    uint256[6] private _unusedSlots;
    mapping(bytes32 => MarketConcentratedPool.State) internal _pools;
    /// The unlocker's delta per currency (positive: owed to it); zero whenever no unlock is under way.
    mapping(address => int256) private _currencyDelta;
    bool private transient _locked;
    address private transient _unlocker;
    uint256 private transient _nonzeroDeltas;
    address private transient _syncedCurrency;
    uint256 private transient _syncedReserves;

    error CurrencyNotSettled();

    modifier lock() {
        require(!_locked, "locked");
        _locked = true;
        _;
        _locked = false;
    }

    /// Native ETH owed to the manager arrives here.
    receive() external payable {}

    function initialize(PoolKey memory key, uint160 sqrtPriceX96) external returns (int24 tick) {
        require(key.tickSpacing >= 1 && key.tickSpacing <= type(int16).max, "tick spacing out of range");
        require(key.currency0 < key.currency1, "currencies out of order or equal");
        require(key.fee <= MAX_LP_FEE || key.fee == DYNAMIC_FEE_FLAG, "fee too large");
        bytes32 id = keccak256(abi.encode(key));
        tick = _pools[id].initialize(sqrtPriceX96, key.fee == DYNAMIC_FEE_FLAG ? 0 : key.fee);
        emit Initialize(id, key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks, sqrtPriceX96, tick);
    }

    /// Position key keccak256(abi.encodePacked(msg.sender, tickLower, tickUpper, salt)), as V4's.
    function modifyLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, bytes calldata)
        external
        lock
        returns (int256 callerDelta, int256 feesAccrued)
    {
        bytes32 id = keccak256(abi.encode(key));
        require(
            params.liquidityDelta >= type(int128).min && params.liquidityDelta <= type(int128).max, "liquidity out of range"
        );
        (int256 amount0, int256 amount1) = _pools[id].modifyPosition(
            MarketConcentratedPool.PositionChange(
                keccak256(abi.encodePacked(msg.sender, params.tickLower, params.tickUpper, params.salt)),
                params.tickLower,
                params.tickUpper,
                int128(params.liquidityDelta),
                key.tickSpacing
            )
        );
        emit ModifyLiquidity(id, msg.sender, params.tickLower, params.tickUpper, params.liquidityDelta, params.salt);
        callerDelta = _settle(key, -amount0, -amount1);
        feesAccrued = 0;
    }

    /// V4's entry for flash-accounted operations: calls back the caller, which then swaps, syncs, settles and
    /// takes; every currency's delta must be back at zero when the callback returns.
    function unlock(bytes calldata data) external returns (bytes memory result) {
        require(_unlocker == address(0), "already unlocked");
        _unlocker = msg.sender;
        result = IUnlockCallback(msg.sender).unlockCallback(data);
        if (_nonzeroDeltas != 0) revert CurrencyNotSettled();
        _unlocker = address(0);
    }

    /// Notes `currency`'s balance here, so that `settle` credits what arrives after it.
    function sync(address currency) external {
        _syncedCurrency = currency;
        _syncedReserves = currency == address(0) ? 0 : currency.currencyBalanceOf(address(this));
    }

    /// Credits the unlocker with what arrived since `sync` (native ETH: the call's value, unsynced).
    function settle() external payable returns (uint256 paid) {
        require(_unlocker != address(0) && msg.sender == _unlocker, "not unlocked");
        address currency = _syncedCurrency;
        paid = currency == address(0) ? msg.value : currency.currencyBalanceOf(address(this)) - _syncedReserves;
        _syncedCurrency = address(0);
        _accountDelta(currency, int256(paid));
    }

    /// Sends `amount` of `currency` to `to`, debited from the unlocker.
    function take(address currency, address to, uint256 amount) external {
        require(_unlocker != address(0) && msg.sender == _unlocker, "not unlocked");
        _accountDelta(currency, -int256(amount));
        currency.sendCurrency(to, amount);
    }

    function swap(PoolKey memory key, SwapParams memory params, bytes calldata) external lock returns (int256 swapDelta) {
        bytes32 id = keccak256(abi.encode(key));
        MarketConcentratedPool.State storage pool = _pools[id];
        uint24 fee = pool.slot0.lpFee;
        (int256 amount0, int256 amount1) = pool.swap(
            MarketConcentratedPool.SwapParams(
                params.zeroForOne, -params.amountSpecified, params.sqrtPriceLimitX96, key.tickSpacing, fee
            )
        );
        emit Swap(
            id, msg.sender, _toInt128(-amount0), _toInt128(-amount1), pool.slot0.sqrtPriceX96, pool.liquidity, pool.slot0.tick, fee
        );
        if (_unlocker == address(0)) return _settle(key, -amount0, -amount1);
        require(msg.sender == _unlocker, "not the unlocker");
        _accountDelta(key.currency0, -amount0);
        _accountDelta(key.currency1, -amount1);
        swapDelta = int256(_toInt128(-amount0)) << 128 | int256(uint256(uint128(_toInt128(-amount1))));
    }

    function _accountDelta(address currency, int256 delta) private {
        if (delta == 0) return;
        int256 before = _currencyDelta[currency];
        int256 next = before + delta;
        if (before == 0) _nonzeroDeltas += 1;
        if (next == 0) _nonzeroDeltas -= 1;
        _currencyDelta[currency] = next;
    }

    function extsload(bytes32 slot) external view returns (bytes32 value) {
        assembly ("memory-safe") {
            value := sload(slot)
        }
    }

    function extsload(bytes32 startSlot, uint256 nSlots) external view returns (bytes32[] memory values) {
        values = new bytes32[](nSlots);
        for (uint256 i = 0; i < nSlots; i++) {
            bytes32 slot = bytes32(uint256(startSlot) + i);
            bytes32 value;
            assembly ("memory-safe") {
                value := sload(slot)
            }
            values[i] = value;
        }
    }

    function extsload(bytes32[] calldata slots) external view returns (bytes32[] memory values) {
        values = new bytes32[](slots.length);
        for (uint256 i = 0; i < slots.length; i++) {
            bytes32 slot = slots[i];
            bytes32 value;
            assembly ("memory-safe") {
                value := sload(slot)
            }
            values[i] = value;
        }
    }

    /// Pays the caller its positive deltas, then has it pay the negative ones; returns V4's BalanceDelta
    /// (amount0 in the high 128 bits, amount1 in the low 128).
    function _settle(PoolKey memory key, int256 delta0, int256 delta1) private returns (int256 balanceDelta) {
        (int128 amount0, int128 amount1) = (_toInt128(delta0), _toInt128(delta1));
        if (amount0 > 0) key.currency0.sendCurrency(msg.sender, uint128(amount0));
        if (amount1 > 0) key.currency1.sendCurrency(msg.sender, uint128(amount1));
        uint256 before0 = key.currency0.currencyBalanceOf(address(this));
        uint256 before1 = key.currency1.currencyBalanceOf(address(this));
        if (amount0 < 0 || amount1 < 0) IDevnetPoolManagerPayer(msg.sender).payPoolManager(key, amount0, amount1);
        if (amount0 < 0) require(key.currency0.currencyBalanceOf(address(this)) >= before0 + uint128(-amount0), "currency0 not settled");
        if (amount1 < 0) require(key.currency1.currencyBalanceOf(address(this)) >= before1 + uint128(-amount1), "currency1 not settled");
        balanceDelta = int256(amount0) << 128 | int256(uint256(uint128(amount1)));
    }

    function _toInt128(int256 value) private pure returns (int128) {
        require(value >= type(int128).min && value <= type(int128).max, "amount out of range");
        return int128(value);
    }
}
