import { type Address, getAddress } from "viem";
import type { Manifest } from "../../devnet/manifest";

export type DemoSample = { name: string; address: Address };

/** Base mainnet contracts the free demo answers in full: the majors builders ask about first. */
export const mainnetDemoSamples: readonly DemoSample[] = [
  { name: "USDC", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  { name: "WETH", address: "0x4200000000000000000000000000000000000006" },
  { name: "cbBTC", address: "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf" },
  { name: "AERO", address: "0x940181a94A35A4569E4529A3CDfB74e38FD98631" },
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
