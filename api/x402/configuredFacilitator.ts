import type { Network } from "@x402/core/types";
import type { RpcProvider } from "../chain/providers";
import type { Config } from "../config";
import { createInProcessFacilitator } from "./createInProcessFacilitator";
import { createRemoteFacilitator } from "./createRemoteFacilitator";
import type { X402Facilitator } from "./X402Facilitator";

export type ConfiguredFacilitatorParameters = {
  x402: Config["x402"];
  /** The devnet's facilitator account, when the chain is the devnet. */
  devnetFacilitatorKey: `0x${string}` | undefined;
  /** The chain's providers, the trusted primary first: the in-process facilitator reads and sends through them. */
  providers: readonly RpcProvider[];
  network: Network;
};

/**
 * The facilitator the configuration asks for: a remote one when X402_FACILITATOR_URL is set, else the
 * in-process one with X402_FACILITATOR_PRIVATE_KEY (on the devnet, by default, the manifest's
 * facilitator account); null when there is none (mainnet without either): x402 is then not offered.
 */
export function configuredFacilitator(p: ConfiguredFacilitatorParameters): X402Facilitator | null {
  if (p.x402.facilitatorUrl) return createRemoteFacilitator({ url: p.x402.facilitatorUrl, network: p.network });
  const privateKey = p.x402.facilitatorPrivateKey ?? p.devnetFacilitatorKey;
  if (!privateKey) return null;
  return createInProcessFacilitator({ privateKey, rpcUrls: p.providers.map((provider) => provider.url), network: p.network });
}
