/**
 * bench:base's devnet in a process of its own: anvil seeded like Base, blocks every `blockSeconds`, and the
 * traffic generator at `rates` (devnet/trafficBaseRates.ts), so that building and sending a block's
 * transactions never pauses the process that measures latencies. Usage:
 * `node --import tsx bench/baseDevnet.ts MANIFEST_PATH BLOCK_SECONDS RATES_JSON`; prints "ready" once the
 * manifest is written and the traffic runs; SIGINT stops both.
 */
import { seededStateFromEnv } from "../devnet/seededState";
import { startDevnet } from "../devnet/startDevnet";
import { type BlockRates, startBaseRateTraffic } from "../devnet/trafficBaseRates";

const [manifestPath, blockSeconds, rates] = process.argv.slice(2);
if (!manifestPath || !blockSeconds || !rates) throw new Error("usage: baseDevnet.ts MANIFEST_PATH BLOCK_SECONDS RATES_JSON");
const devnet = await startDevnet({
  port: 0,
  blockTime: Number(blockSeconds),
  traffic: false,
  seededState: seededStateFromEnv(),
  manifestPath,
});
const traffic = startBaseRateTraffic(devnet.manifest, JSON.parse(rates) as BlockRates, (message) => console.error(message));
console.log("ready");
process.once(
  "SIGINT",
  () =>
    void traffic
      .stop()
      .then(devnet.stop)
      .then(() => process.exit(0)),
);
