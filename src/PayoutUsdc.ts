import { ponder } from "ponder:registry";
import { payment } from "ponder:schema";

ponder.on("PayoutUsdc:Transfer", async ({ event, context }) => {
  await context.db.insert(payment).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    chainId: context.chain.id,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    blockNumber: event.block.number,
    blockHash: event.block.hash,
    timestamp: event.block.timestamp,
    from: event.args.from,
    to: event.args.to,
    amount: event.args.value,
  });
});
