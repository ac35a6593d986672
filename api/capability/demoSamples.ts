import { type Address, getAddress } from "viem";
import { baseTokens } from "../../base/baseChain";
import type { Manifest } from "../../devnet/manifest";

export type DemoSample = { name: string; address: Address };

/** Base mainnet contracts the free demo answers in full: the majors builders ask about first. */
export const mainnetDemoSamples: readonly DemoSample[] = [
  { name: "USDC", address: baseTokens.USDC.address },
  { name: "WETH", address: baseTokens.WETH.address },
  { name: "cbBTC", address: baseTokens.cbBTC.address },
  { name: "AERO", address: baseTokens.AERO.address },
  { name: "Uniswap V3 WETH/USDC 0.05%", address: "0xd0b53D9277642d899DF5C87A3966A349A798F224" },
];

/** Devnet fixtures the demo answers in full: one of each interesting shape. */
const devnetSampleNames = [
  "diamond",
  "transparentProxy",
  "uupsProxy",
  "beaconProxy",
  "clone",
  "safeProxy",
  "delegatedAccount",
  "plainToken",
  "selfDestructor",
];

/** The demo allowlist: explicit configuration, else the devnet fixtures or the mainnet majors. */
export function demoSamples(configured: readonly string[] | undefined, manifest: Manifest | undefined): DemoSample[] {
  if (configured) return configured.map((a, i) => ({ name: `sample-${i + 1}`, address: getAddress(a.toLowerCase()) }));
  if (!manifest) return [...mainnetDemoSamples];
  const usdc = manifest.tokens.USDC;
  return [
    ...(usdc ? [{ name: "USDC", address: usdc.address }] : []),
    ...devnetSampleNames.flatMap((name) => {
      const address = manifest.contracts[name];
      return address ? [{ name, address }] : [];
    }),
  ];
}
