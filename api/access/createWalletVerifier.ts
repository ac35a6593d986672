import { type Address, createPublicClient, defineChain, fallback, type Hex, http } from "viem";
import type { RpcProvider } from "../chain/providers";

export type WalletProof = "VALID" | "INVALID" | "UNAVAILABLE";

export type WalletVerifier = {
  /** Checks a personal_sign signature of `message` by `address`: an EOA, an ERC-1271 wallet, or an undeployed ERC-6492 one. */
  verify(p: { address: Address; message: string; signature: Hex }): Promise<WalletProof>;
};

/**
 * Verifies wallet signatures with viem's `verifyMessage` over the configured providers: a contract
 * wallet's signature is checked on chain (ERC-1271, or ERC-6492 through the deployless validator), an
 * EOA's by recovery. A provider failure is UNAVAILABLE (503), never a refusal.
 */
export function createWalletVerifier({ providers, chainId }: { providers: readonly RpcProvider[]; chainId: number }): WalletVerifier {
  // A chain without a predeployed ERC-6492 verifier: viem then uses the deployless one, on any chain.
  const chain = defineChain({
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: providers.map((p) => p.url) } },
  });
  const client = createPublicClient({
    chain,
    transport: fallback(providers.map((p) => http(p.url, { timeout: 5_000, retryCount: 0 }))),
  });
  return {
    async verify({ address, message, signature }) {
      try {
        // A valid EOA signature is settled by local recovery (no provider needed); anything else is
        // asked of the chain, where a contract wallet answers.
        return (await client.verifyMessage({ address, message, signature, mode: "eoa" })) ? "VALID" : "INVALID";
      } catch (err) {
        return isTransportFailure(err) ? "UNAVAILABLE" : "INVALID";
      }
    },
  };
}

/** True for failures to reach a provider, as opposed to a signature the chain refused. */
function isTransportFailure(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e.name === "HttpRequestError" || e.name === "TimeoutError" || e.name === "RpcRequestError") return true;
  }
  return false;
}
