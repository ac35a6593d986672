import { ponder } from "ponder:registry";
import { trackedToken, whaleTransfer } from "ponder:schema";
import { checkToken } from "./checkToken";
import { isWhaleTransfer } from "./isWhaleTransfer";
import { plan } from "./plan";

ponder.on("TrackedToken:setup", async ({ context }) => {
  for (const token of plan.tokens) {
    const { decimals, reason } = await checkToken(context.client, token);
    if (reason) console.warn(`[indexer] tracked token ${token.symbol} refused: ${reason}`);
    await context.db.insert(trackedToken).values({
      chainId: context.chain.id,
      address: token.address,
      symbol: token.symbol,
      decimals,
      status: reason ? "refused" : "verified",
      reason,
      whaleThreshold: token.whaleThreshold,
      transfersFromBlock: BigInt(context.contracts.TrackedToken.startBlock ?? 0),
    });
  }
});

const whaleThresholds = new Map(plan.tokens.map((t) => [t.address.toLowerCase(), t.whaleThreshold]));

ponder.on("TrackedToken:Transfer", async ({ event, context }) => {
  // Nearly every transfer is below its threshold: compare before reading the token's status.
  if (!isWhaleTransfer(whaleThresholds, event.log.address, event.args.value)) return;
  const token = await context.db.find(trackedToken, { chainId: context.chain.id, address: event.log.address });
  if (token?.status !== "verified") return;
  await context.db.insert(whaleTransfer).values({
    chainId: context.chain.id,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    token: event.log.address,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
    from: event.args.from,
    to: event.args.to,
    amount: event.args.value,
  });
});
