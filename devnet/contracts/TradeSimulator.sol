// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISimToken {
    function balanceOf(address) external view returns (uint256);
    function transfer(address, uint256) external returns (bool);
}

interface ISimConcentratedPool {
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// Uniswap V4's PoolKey and SwapParams, and the PoolManager's flash-accounting calls.
struct SimPoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct SimSwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface ISimPoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function swap(SimPoolKey memory key, SimSwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
}

interface ISimPair {
    function getReserves() external view returns (uint256, uint256, uint256);
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// The trade simulation's helper. Never deployed: the API places its runtime code by state override at two
/// synthetic addresses (the trader and its peer) inside one eth_call, funds the trader's quote asset by
/// override, and reads back what each step observed. Every step runs as a call of its own with a gas cap,
/// so a revert is caught with its data; the ladder's probes always revert, leaving no state behind.
contract TradeSimulator {
    /// Uniswap V3's price bounds, one inside: a swap limited by them runs until its amount is used.
    uint160 private constant MIN_SQRT_RATIO_INSIDE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_INSIDE = 1461446703485210103287273052203988822378723970341;

    /// The concentrated pool a swap of ours is running in: its callback is taken from that pool only.
    address private _swappingPool;

    /// kind 0: Uniswap V2 pair (0.3% fee from reserves); kind 1: Aerodrome pool (its own getAmountOut); kind 2:
    /// a concentrated pool (Uniswap V3 or Slipstream: swap with a callback, quoted by a swap reverted in it);
    /// kind 3: a hookless Uniswap V4 pool of `fee` and `tickSpacing` (`pool` is the PoolManager: swap inside
    /// unlock, then take, sync and settle; quoted likewise).
    struct Plan {
        address pool;
        uint8 kind;
        uint24 fee;
        int24 tickSpacing;
        address token;
        address quote;
        address peer;
        uint256 smallIn;
        uint256 largeIn;
        /// Resolution of the ladder, in token base units (one whole token).
        uint256 unit;
        uint256 ladderSteps;
        uint256 stepGas;
    }

    /// Buy: sent quote, arrived at the pool, quoted token out, received by the trader. Transfer: sent,
    /// arrived (the sender's balance fell by), quoted = sent, received by the peer. Sell: sent tokens, arrived
    /// at the pool, quoted = the pool's quote for what was sent, received quote asset.
    struct Step {
        bool attempted;
        bool ok;
        uint256 gasUsed;
        uint256 sent;
        uint256 arrived;
        uint256 quoted;
        uint256 received;
        bytes revertData;
    }

    struct Limit {
        bool probed;
        uint256 largestOk;
        uint256 smallestFailed;
        uint256 steps;
    }

    struct Report {
        Step buySmall;
        Step transfer;
        Step sellSmall;
        Step buyLarge;
        Step sellLarge;
        Limit buyLimit;
        Limit sellLimit;
    }

    error ProbeSucceeded();
    /// A quoting swap's output, carried out of its callback by a revert (as Uniswap's QuoterV2 does).
    error Quoted(uint256 amountOut);

    function simulate(Plan calldata p) external returns (Report memory r) {
        r.buySmall = _step(p, abi.encodeCall(this.buy, (p, p.smallIn)));
        if (r.buySmall.ok) {
            r.transfer = _step(p, abi.encodeCall(this.send, (p, r.buySmall.received)));
            if (r.transfer.ok) r.sellSmall = _step(p, abi.encodeCall(this.sellThroughPeer, (p)));
        }
        r.buyLarge = _step(p, abi.encodeCall(this.buy, (p, p.largeIn)));
        if (r.buyLarge.ok) r.sellLarge = _step(p, abi.encodeCall(this.sell, (p, r.buyLarge.received)));
        if (r.buySmall.ok && !r.buyLarge.ok) r.buyLimit = _ladder(p, true, r.buySmall.quoted, _largeBuyOut(p, r.buySmall.quoted));
        if (r.sellSmall.ok && r.buyLarge.ok && !r.sellLarge.ok) {
            r.sellLimit = _ladder(p, false, r.sellSmall.sent, r.buyLarge.received);
        }
    }

    /// Buys the token with `amountIn` of the quote asset at the pool's own quote.
    function buy(Plan calldata p, uint256 amountIn) external returns (uint256, uint256, uint256, uint256) {
        if (p.kind >= 2) return _buyConcentrated(p, amountIn);
        uint256 out = quote(p, p.quote, amountIn);
        uint256 poolBefore = ISimToken(p.quote).balanceOf(p.pool);
        _pay(p.quote, p.pool, amountIn);
        uint256 arrived = ISimToken(p.quote).balanceOf(p.pool) - poolBefore;
        uint256 before = ISimToken(p.token).balanceOf(address(this));
        _swapOut(p, p.token, out);
        return (amountIn, arrived, out, ISimToken(p.token).balanceOf(address(this)) - before);
    }

    /// Sends `amount` of the token to the peer.
    function send(Plan calldata p, uint256 amount) external returns (uint256, uint256, uint256, uint256) {
        uint256 mine = ISimToken(p.token).balanceOf(address(this));
        uint256 theirs = ISimToken(p.token).balanceOf(p.peer);
        _pay(p.token, p.peer, amount);
        uint256 left = ISimToken(p.token).balanceOf(address(this));
        return (amount, mine > left ? mine - left : 0, amount, ISimToken(p.token).balanceOf(p.peer) - theirs);
    }

    /// The peer sells everything it holds.
    function sellThroughPeer(Plan calldata p) external returns (uint256, uint256, uint256, uint256) {
        return TradeSimulator(p.peer).sell(p, ISimToken(p.token).balanceOf(p.peer));
    }

    /// Sells `amount` of the token: the pool's quote for what was sent against what it pays for what arrived.
    function sell(Plan calldata p, uint256 amount) public returns (uint256, uint256, uint256, uint256) {
        if (p.kind >= 2) return _sellConcentrated(p, amount);
        uint256 quoted = quote(p, p.token, amount);
        uint256 arrived = _payPool(p, amount);
        uint256 before = ISimToken(p.quote).balanceOf(address(this));
        _swapOut(p, p.quote, quote(p, p.token, arrived));
        return (amount, arrived, quoted, ISimToken(p.quote).balanceOf(address(this)) - before);
    }

    /// Sends `amount` of the token to the pool; what arrived beyond its reserve.
    function _payPool(Plan calldata p, uint256 amount) private returns (uint256) {
        (uint256 r0, uint256 r1,) = ISimPair(p.pool).getReserves();
        _pay(p.token, p.pool, amount);
        return ISimToken(p.token).balanceOf(p.pool) - (p.token < p.quote ? r0 : r1);
    }

    /// Tries `amount` (token units leaving the pool on a buy, or sent on a sell), then reverts whatever happened.
    function probe(Plan calldata p, bool buying, uint256 amount) external {
        if (buying && p.kind >= 2) {
            _swapConcentrated(p, p.quote, -int256(amount), false);
        } else if (buying) {
            _pay(p.quote, p.pool, p.largeIn);
            _swapOut(p, p.token, amount);
        } else {
            _pay(p.token, p.pool, amount);
        }
        revert ProbeSucceeded();
    }

    /// The pool's output for `amountIn` of `tokenIn` before the trade: from its reserves, or for a concentrated
    /// pool from a swap reverted in its callback (0 where that swap fails before the callback).
    function quote(Plan calldata p, address tokenIn, uint256 amountIn) public returns (uint256) {
        if (p.kind >= 2) {
            try this.quoteConcentrated(p, tokenIn, amountIn) {}
            catch (bytes memory data) {
                if (data.length == 36 && bytes4(data) == Quoted.selector) {
                    uint256 out;
                    assembly {
                        out := mload(add(data, 36))
                    }
                    return out;
                }
            }
            return 0;
        }
        if (p.kind == 1) return ISimPair(p.pool).getAmountOut(amountIn, tokenIn);
        (uint256 r0, uint256 r1,) = ISimPair(p.pool).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = tokenIn == (p.token < p.quote ? p.token : p.quote) ? (r0, r1) : (r1, r0);
        uint256 withFee = amountIn * 997;
        return withFee * reserveOut / (reserveIn * 1000 + withFee);
    }

    /// Swaps `amountIn` of `tokenIn` in a concentrated pool and reverts with its output from the callback.
    function quoteConcentrated(Plan calldata p, address tokenIn, uint256 amountIn) external {
        _swapConcentrated(p, tokenIn, int256(amountIn), true);
    }

    /// Pays what a concentrated pool is owed, or when quoting reverts with what it paid out. The pool has
    /// paid first (as Uniswap V3 does), so a token's transfer rules run before this.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        require(msg.sender == _swappingPool, "callback from an unexpected pool");
        (address tokenIn, bool quoting) = abi.decode(data, (address, bool));
        (int256 owed, int256 paidOut) = amount0Delta > 0 ? (amount0Delta, amount1Delta) : (amount1Delta, amount0Delta);
        if (quoting) revert Quoted(uint256(-paidOut));
        _pay(tokenIn, msg.sender, uint256(owed));
    }

    /// A buy in a concentrated pool: the pool's own output for the input is what the swap paid out.
    function _buyConcentrated(Plan calldata p, uint256 amountIn) private returns (uint256, uint256, uint256, uint256) {
        uint256 poolBefore = ISimToken(p.quote).balanceOf(p.pool);
        uint256 before = ISimToken(p.token).balanceOf(address(this));
        (uint256 paid, uint256 out) = _swapConcentrated(p, p.quote, int256(amountIn), false);
        uint256 arrived = ISimToken(p.quote).balanceOf(p.pool) - poolBefore;
        return (paid, arrived, out, ISimToken(p.token).balanceOf(address(this)) - before);
    }

    /// A sell in a concentrated pool: the pool takes exactly what it is owed, so a token that keeps part of a
    /// transfer fails the pool's balance check (Uniswap V3's "IIA").
    function _sellConcentrated(Plan calldata p, uint256 amount) private returns (uint256, uint256, uint256, uint256) {
        uint256 quoted = quote(p, p.token, amount);
        uint256 poolBefore = ISimToken(p.token).balanceOf(p.pool);
        uint256 before = ISimToken(p.quote).balanceOf(address(this));
        (uint256 paid,) = _swapConcentrated(p, p.token, int256(amount), false);
        uint256 arrived = ISimToken(p.token).balanceOf(p.pool) - poolBefore;
        return (paid, arrived, quoted, ISimToken(p.quote).balanceOf(address(this)) - before);
    }

    /// One swap in a concentrated pool (a positive amount is an exact input, a negative one an exact output):
    /// what was paid in and what was paid out.
    function _swapConcentrated(Plan calldata p, address tokenIn, int256 amountSpecified, bool quoting)
        private
        returns (uint256 paidIn, uint256 paidOut)
    {
        bool zeroForOne = tokenIn < (tokenIn == p.token ? p.quote : p.token);
        _swappingPool = p.pool;
        if (p.kind == 3) {
            SimPoolKey memory key = SimPoolKey(
                zeroForOne ? tokenIn : _other(p, tokenIn), zeroForOne ? _other(p, tokenIn) : tokenIn, p.fee, p.tickSpacing, address(0)
            );
            // V4's sign is V3's reversed: negative is an exact input.
            bytes memory paid = ISimPoolManager(p.pool).unlock(abi.encode(key, zeroForOne, -amountSpecified, quoting));
            _swappingPool = address(0);
            return abi.decode(paid, (uint256, uint256));
        }
        (int256 amount0, int256 amount1) = ISimConcentratedPool(p.pool).swap(
            address(this),
            zeroForOne,
            amountSpecified,
            zeroForOne ? MIN_SQRT_RATIO_INSIDE : MAX_SQRT_RATIO_INSIDE,
            abi.encode(tokenIn, quoting)
        );
        _swappingPool = address(0);
        (int256 inDelta, int256 outDelta) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        return (uint256(inDelta), uint256(-outDelta));
    }

    /// V4's flash accounting, called back inside unlock: the swap, then the output taken first (as a pool pays
    /// first) and the input paid and settled; an input that arrives short leaves its delta open, and unlock
    /// reverts with CurrencyNotSettled. Quoting reverts with the output after the swap.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == _swappingPool, "callback from an unexpected pool manager");
        (SimPoolKey memory key, bool zeroForOne, int256 amountSpecified, bool quoting) =
            abi.decode(data, (SimPoolKey, bool, int256, bool));
        ISimPoolManager manager = ISimPoolManager(msg.sender);
        int256 delta = manager.swap(
            key, SimSwapParams(zeroForOne, amountSpecified, zeroForOne ? MIN_SQRT_RATIO_INSIDE : MAX_SQRT_RATIO_INSIDE), ""
        );
        (int128 delta0, int128 delta1) = (int128(delta >> 128), int128(delta));
        (int128 deltaIn, int128 deltaOut) = zeroForOne ? (delta0, delta1) : (delta1, delta0);
        uint256 owed = uint256(uint128(-deltaIn));
        uint256 out = uint256(uint128(deltaOut));
        if (quoting) revert Quoted(out);
        (address tokenIn, address tokenOut) = zeroForOne ? (key.currency0, key.currency1) : (key.currency1, key.currency0);
        manager.take(tokenOut, address(this), out);
        manager.sync(tokenIn);
        _pay(tokenIn, address(manager), owed);
        manager.settle();
        return abi.encode(owed, out);
    }

    function _other(Plan calldata p, address token) private pure returns (address) {
        return token == p.token ? p.quote : p.token;
    }

    /// Tokens a large buy would take out of the pool, at least: a concentrated pool's quote would run the
    /// token's transfer (which may be what failed), so its bound is the small buy's output scaled up, which
    /// the curve's concavity keeps above the large buy's.
    function _largeBuyOut(Plan calldata p, uint256 smallOut) private returns (uint256) {
        if (p.kind < 2) return quote(p, p.quote, p.largeIn);
        return (smallOut * p.largeIn + p.smallIn - 1) / p.smallIn;
    }

    /// Bisects whole token units between an amount that succeeded and one that failed, at most ladderSteps probes.
    function _ladder(Plan calldata p, bool buying, uint256 ok, uint256 failed) private returns (Limit memory l) {
        l.probed = true;
        uint256 lo = ok / p.unit;
        uint256 hi = (failed + p.unit - 1) / p.unit;
        while (hi - lo > 1 && l.steps < p.ladderSteps) {
            uint256 mid = (lo + hi) / 2;
            l.steps++;
            try this.probe{gas: p.stepGas}(p, buying, mid * p.unit) {}
            catch (bytes memory data) {
                if (data.length == 4 && bytes4(data) == ProbeSucceeded.selector) lo = mid;
                else hi = mid;
            }
        }
        l.largestOk = lo * p.unit;
        l.smallestFailed = hi * p.unit;
    }

    function _step(Plan calldata p, bytes memory call) private returns (Step memory s) {
        s.attempted = true;
        uint256 start = gasleft();
        (bool ok, bytes memory ret) = address(this).call{gas: p.stepGas}(call);
        s.gasUsed = start - gasleft();
        s.ok = ok;
        if (ok) (s.sent, s.arrived, s.quoted, s.received) = abi.decode(ret, (uint256, uint256, uint256, uint256));
        else s.revertData = ret;
    }

    function _swapOut(Plan calldata p, address tokenOut, uint256 out) private {
        bool zeroOut = tokenOut < (tokenOut == p.token ? p.quote : p.token);
        ISimPair(p.pool).swap(zeroOut ? out : 0, zeroOut ? 0 : out, address(this), "");
    }

    function _pay(address token, address to, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(ISimToken.transfer, (to, amount)));
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        require(ret.length == 0 || abi.decode(ret, (bool)), "transfer returned false");
    }
}
