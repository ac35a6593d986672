import { createServer } from "node:net";
import { afterAll, expect, test } from "vitest";
import { StatusReport } from "../../api/health/StatusReport";
import { freePort } from "../../devnet/anvil";
import { testManifest } from "../support/devnet";
import { type RunningService, startService, waitForJson } from "../support/startService";

let service: RunningService | undefined;
afterAll(async () => {
  await service?.stop();
});

/** True when nothing listens on the port (a devnet would). */
const portIsFree = (port: number) =>
  new Promise<boolean>((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });

test("behavior: with BASE_RPC_PRIMARY_URL set, npm start starts no devnet and serves from the given provider", async () => {
  const manifest = testManifest();
  const devnetPort = await freePort();
  // The test devnet stands in for a Base node: chain 8453, but none of mainnet's pools (they are refused).
  service = await startService({
    BASE_RPC_PRIMARY_URL: manifest.rpcUrl,
    DEVNET_PORT: String(devnetPort),
    PAYOUT_ADDRESS: manifest.payoutAddress,
    API_KEY_PEPPER: "mainnet-mode-test-pepper-0123456789abcdef",
  });
  const ready = await waitForJson<StatusReport>(`${service.baseUrl}/v1/status`, (status) => status === 200, 120_000, service);
  const status = StatusReport.parse(ready.body);
  expect(status.chain.source).toBe("base-mainnet");
  expect(status.rpc.providers.map((p) => [p.name, p.trusted])).toEqual([["primary:127.0.0.1", true]]);
  expect(await portIsFree(devnetPort)).toBe(true);
  expect(service.output()).not.toContain("[start] devnet");
  expect(await service.stop()).toBe(0);
  service = undefined;
}, 180_000);
