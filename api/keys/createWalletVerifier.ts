import {
  type Address,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hex,
  hashMessage,
  isAddressEqual,
  recoverAddress,
} from "viem";
import { pinObservationBlock, pinReadsPerProvider } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { readAtEvidenceGrade } from "../chain/readAtEvidenceGrade";

export type WalletProof = { status: "VALID" } | { status: "INVALID" } | { status: "UNAVAILABLE"; reason: string };

export type WalletVerifier = {
  /** Checks a personal_sign signature of `message` by `address`: an EOA, an ERC-1271 wallet, or an undeployed ERC-6492 one. */
  verify(p: { address: Address; message: string; signature: Hex }): Promise<WalletProof>;
};

/**
 * RPC reads one verification asks of each provider at most, whatever the signature: none for the
 * wallet's own EOA signature; for any other, a pin and one validator call (of the trusted primary, or
 * of every public provider).
 */
export const walletProofReadsPerProvider = pinReadsPerProvider + 1;

/**
 * Verifies wallet signatures. An EOA's signature is settled by local recovery (no provider is asked);
 * anything else is checked on chain by the ERC-6492 universal validator (ERC-1271 for deployed wallets,
 * the wallet's factory call for undeployed ones) in a deployless `eth_call` at an evidence-grade pinned
 * block, answered by the trusted primary or by public providers that agree (`readAtEvidenceGrade`): a
 * single lying public provider cannot make a signature valid. Without evidence grade the answer is
 * UNAVAILABLE (a retryable 503), never a guess either way.
 */
export function createWalletVerifier({ providers, chainId }: { providers: readonly RpcProvider[]; chainId: number }): WalletVerifier {
  return {
    async verify({ address, message, signature }) {
      const hash = hashMessage(message);
      if (await recoversTo(address, hash, signature)) return { status: "VALID" };
      const block = await pinObservationBlock({ providers, chainId });
      if (!block.evidenceGrade) return { status: "UNAVAILABLE", reason: block.reason ?? "no evidence-grade block" };
      const data = encodeDeployData({
        abi: erc6492SignatureValidatorAbi,
        bytecode: erc6492SignatureValidatorByteCode,
        args: [address, hash, signature],
      });
      const [outcome] = await readAtEvidenceGrade(block, providers, [{ kind: "call", data }]);
      if (!outcome) return { status: "UNAVAILABLE", reason: "no answer" };
      if (!outcome.ok) {
        // The validator reverts on a malformed or foreign signature: a refusal, not an outage.
        return outcome.reverted ? { status: "INVALID" } : { status: "UNAVAILABLE", reason: outcome.reason };
      }
      return BigInt(outcome.value === "0x" ? 0 : outcome.value) === 1n ? { status: "VALID" } : { status: "INVALID" };
    },
  };
}

async function recoversTo(address: Address, hash: Hex, signature: Hex): Promise<boolean> {
  if (signature.length !== 132) return false;
  try {
    return isAddressEqual(await recoverAddress({ hash, signature }), address);
  } catch {
    return false;
  }
}
