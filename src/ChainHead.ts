import { ponder } from "ponder:registry";
import { chainHead } from "ponder:schema";

ponder.on("ChainHead:block", async ({ event, context }) => {
  const head = { number: event.block.number, hash: event.block.hash, timestamp: event.block.timestamp };
  await context.db
    .insert(chainHead)
    .values({ chainId: context.chain.id, ...head })
    .onConflictDoUpdate(head);
});
