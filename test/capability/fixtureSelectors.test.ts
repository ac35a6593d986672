import { hexToBytes } from "viem";
import { expect, test } from "vitest";
import { dissectBytecode } from "../../api/capability/dissectBytecode";
import { parseDelegationDesignator } from "../../api/capability/parseDelegationDesignator";
import { parseMinimalProxy } from "../../api/capability/parseMinimalProxy";
import { compileFixtures } from "../../devnet/compile";
import { testClient, testManifest } from "../support/devnet";
import { abiSelectors } from "./corpus";

const manifest = testManifest();
const client = testClient(manifest);
const artifacts = Object.entries(compileFixtures()).filter(([, a]) => a.deployedBytecode.length > 2);

/**
 * The artifact whose runtime code this is: of the same length, the one with the most equal bytes, if at
 * least 80% are (immutables, which constructors fill, are the rest).
 */
function artifactFor(code: Uint8Array) {
  let best: { match: (typeof artifacts)[number]; equal: number } | undefined;
  for (const candidate of artifacts) {
    const expected = hexToBytes(candidate[1].deployedBytecode);
    if (expected.length !== code.length) continue;
    let equal = 0;
    for (let i = 0; i < code.length; i++) if (code[i] === expected[i]) equal++;
    if (!best || equal > best.equal) best = { match: candidate, equal };
  }
  return best && best.equal >= code.length * 0.8 ? best.match : undefined;
}

test("behavior: on every deployed fixture of the manifest, the selectors found equal its solc ABI's exactly", async () => {
  const addresses = { ...manifest.contracts, ...Object.fromEntries(manifest.pools.map((p) => [p.name, p.address])) };
  let checked = 0;
  for (const [name, address] of Object.entries(addresses)) {
    const code = hexToBytes((await client.getCode({ address })) ?? "0x");
    if (parseMinimalProxy(code) || parseDelegationDesignator(code)) continue; // not compiled contracts
    const match = artifactFor(code);
    expect(match, `no artifact matches the code of ${name}`).toBeDefined();
    if (!match) continue;
    const [contract, artifact] = match;
    expect(dissectBytecode(code).selectors, `${name} (${contract})`).toEqual(abiSelectors(artifact.abi).sort());
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(55);
});
