import { expect, test } from "vitest";
import { testClient, testManifest } from "./support/devnet";

test("default: the devnet answers as Base (chain 8453)", async () => {
  const manifest = testManifest();
  expect(manifest.chainId).toBe(8453);
  expect(await testClient(manifest).getChainId()).toBe(8453);
});
