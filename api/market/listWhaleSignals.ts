import { type Result, success } from "../errors";
import type { IndexDb } from "../index/indexDb";
import { readWhaleTransfers } from "../index/readWhaleTransfers";
import { priceDigits, usdDigits } from "./describePool";
import { formatRatio, mulRatio } from "./ratio";
import type { ReadMarket } from "./readMarket";
import type { WhaleSignal, WhaleSignalsResponse } from "./WhaleSignalsResponse";

/** Signals per answer (the spec's tool description: at most 50). */
export const whaleSignalLimit = 50;

export type ListWhaleSignalsDeps = { readMarket: ReadMarket; indexDb: IndexDb; chainId: number; windowBlocks: number };

/**
 * The newest (at most 50) transfers of verified tracked tokens at or above their whale threshold, mined in
 * the `windowBlocks` blocks up to the index head, each valued at its token's current indexed USD price
 * (with that price's basis), or marked unvalued when the token has none.
 */
export async function listWhaleSignals(deps: ListWhaleSignalsDeps): Promise<Result<WhaleSignalsResponse>> {
  const market = await deps.readMarket();
  if (!market.ok) return market;
  const { snapshot, provenance } = market.value;
  const toBlock = snapshot.head.number;
  const fromBlock = toBlock >= BigInt(deps.windowBlocks) ? toBlock - BigInt(deps.windowBlocks) + 1n : 0n;
  const transfers = await readWhaleTransfers(deps.indexDb, deps.chainId, { fromBlock, toBlock, limit: whaleSignalLimit });
  const tokens = new Map(snapshot.tokens.map((t) => [t.address, t]));
  const whole = (units: bigint, decimals: number) => formatRatio({ num: units, den: 10n ** BigInt(decimals) }, decimals);
  const signals = transfers.flatMap((transfer): WhaleSignal[] => {
    const token = tokens.get(transfer.token.toLowerCase() as `0x${string}`);
    if (!token) return [];
    const price = snapshot.prices.get(token.address);
    const usd = price?.usd;
    const routes = new Set(price?.pools.map((c) => c.route));
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
                route: routes.size === 1 ? ([...routes][0] ?? "MIXED") : "MIXED",
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
    provenance,
  });
}
