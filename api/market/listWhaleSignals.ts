import { failure, type Result, success } from "../errors";
import type { IndexDb } from "../index/indexDb";
import { readWhaleTransfers } from "../index/readWhaleTransfers";
import type { MarketSnapshot } from "./buildMarketSnapshot";
import { priceDigits, routeOf, usdDigits } from "./describePool";
import { formatRatio, mulRatio } from "./ratio";
import type { ReadMarket } from "./readMarket";
import type { WhaleSignal, WhaleSignalsResponse } from "./WhaleSignalsResponse";

/** Signals per answer (the spec's tool description: at most 50). */
export const whaleSignalLimit = 50;

export type ListWhaleSignalsParameters = { readMarket: ReadMarket; indexDb: IndexDb; chainId: number; windowBlocks: number };

/**
 * The newest (at most 50) transfers of verified tracked tokens at or above their whale threshold, mined in
 * the `windowBlocks` blocks up to the index head, each valued at its token's current indexed USD price
 * (with that price's basis), or marked unvalued when the token has none.
 */
export async function listWhaleSignals(deps: ListWhaleSignalsParameters): Promise<Result<WhaleSignalsResponse>> {
  const market = await deps.readMarket();
  if (!market.ok) return market;
  const { snapshot, provenance } = market.value;
  const signals = await signalsOf(deps, snapshot);
  return signals.ok ? success({ ...signals.value, provenance }) : signals;
}

/** Signals by snapshot: read and valued once however many requests ask at that indexed block. */
const signalsBySnapshot = new WeakMap<MarketSnapshot, Promise<Result<Omit<WhaleSignalsResponse, "provenance">>>>();

/** A snapshot comes from one market reader, whose deps these are: they are the same at every call. */
function signalsOf(deps: ListWhaleSignalsParameters, snapshot: MarketSnapshot) {
  let signals = signalsBySnapshot.get(snapshot);
  if (!signals) {
    signals = readSignals(deps, snapshot);
    signalsBySnapshot.set(snapshot, signals);
  }
  return signals;
}

async function readSignals(
  deps: ListWhaleSignalsParameters,
  snapshot: MarketSnapshot,
): Promise<Result<Omit<WhaleSignalsResponse, "provenance">>> {
  const toBlock = snapshot.head.number;
  // The window never claims blocks before the first indexed one.
  const back = toBlock - BigInt(deps.windowBlocks) + 1n;
  const fromBlock = back > snapshot.transfersFromBlock ? back : snapshot.transfersFromBlock;
  let transfers: Awaited<ReturnType<typeof readWhaleTransfers>>;
  try {
    transfers = await readWhaleTransfers(deps.indexDb, deps.chainId, { fromBlock, toBlock, limit: whaleSignalLimit });
  } catch {
    return failure("DATA_SOURCE_UNAVAILABLE", "the index store cannot be read");
  }
  const tokens = new Map(snapshot.tokens.map((t) => [t.address, t]));
  const whole = (units: bigint, decimals: number) => formatRatio({ num: units, den: 10n ** BigInt(decimals) }, decimals);
  const signals = transfers.flatMap((transfer): WhaleSignal[] => {
    const token = tokens.get(transfer.token.toLowerCase() as `0x${string}`);
    if (!token) return [];
    const price = snapshot.prices.get(token.address);
    const usd = price?.usd;
    return [
      {
        txHash: transfer.txHash,
        logIndex: transfer.logIndex,
        blockNumber: Number(transfer.blockNumber),
        timestamp: new Date(Number(transfer.timestamp) * 1000).toISOString(),
        token: { symbol: token.symbol, address: token.address },
        from: transfer.from,
        to: transfer.to,
        amount: whole(transfer.amount, token.decimals),
        amountBaseUnits: transfer.amount.toString(),
        valueUsd: usd ? formatRatio(mulRatio(usd, { num: transfer.amount, den: 10n ** BigInt(token.decimals) }), usdDigits) : null,
        valuation:
          usd && price
            ? {
                status: "PRICED",
                priceUsd: formatRatio(usd, priceDigits),
                basis: "MEDIAN_OF_DEEPEST_POOLS",
                pools: price.pools.length,
                route: routeOf(price.pools),
                atBlock: Number(toBlock),
              }
            : { status: "UNAVAILABLE", reason: `no indexed pool of ${token.symbol} is deep enough to price it` },
      },
    ];
  });
  return success({
    window: { fromBlock: Number(fromBlock), toBlock: Number(toBlock), blocks: Number(toBlock - fromBlock + 1n) },
    thresholds: snapshot.thresholds.map((t) => ({
      symbol: t.symbol,
      address: t.address,
      minAmount: whole(t.whaleThreshold, t.decimals),
      minAmountBaseUnits: t.whaleThreshold.toString(),
    })),
    signals,
    limit: whaleSignalLimit,
  });
}
