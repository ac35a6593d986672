import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { getAddress, type Hex, keccak256 } from "viem";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { readAtEvidenceGrade } from "../chain/readAtEvidenceGrade";

/**
 * FOUND: the escrow's code at its canonical address has the expected hash; ABSENT: it has other code or
 * none (or no hash is expected on this chain); UNREAD: the chain could not be read at evidence grade.
 */
export type EscrowPresence = "FOUND" | "ABSENT" | "UNREAD";

/** Whether x402's batch-settlement escrow runs where `@x402/evm` sends its deposits and claims. */
export type EscrowCodeCheck = () => Promise<EscrowPresence>;

export type EscrowCodeCheckParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** The code hash the escrow must have on this chain (devnet: the seeded fixture's); null: none is trusted here. */
  expectedCodeHash: Hex | null;
};

/** The escrow's canonical address, the same on every chain (CREATE2). */
export const batchEscrowAddress = getAddress(BATCH_SETTLEMENT_ADDRESS);

/**
 * The escrow's code read once at evidence grade and compared by keccak-256 with the hash expected on
 * this chain: a deposit or claim must never go to other code at that address. A definite answer is
 * kept for the process's life (the check runs at start); an unread one is asked again by the next
 * caller, concurrent callers sharing one read.
 */
export function escrowCodeCheck({ providers, chainId, expectedCodeHash }: EscrowCodeCheckParameters): EscrowCodeCheck {
  let known: EscrowPresence | undefined = expectedCodeHash === null ? "ABSENT" : undefined;
  let reading: Promise<EscrowPresence> | undefined;

  async function read(): Promise<EscrowPresence> {
    const block = await pinObservationBlock({ providers, chainId });
    if (!block.evidenceGrade) return "UNREAD";
    const [code] = await readAtEvidenceGrade(block, providers, [{ kind: "code", address: batchEscrowAddress }]);
    if (!code?.ok) return "UNREAD";
    return code.value !== "0x" && keccak256(code.value) === expectedCodeHash?.toLowerCase() ? "FOUND" : "ABSENT";
  }

  return () => {
    if (known) return Promise.resolve(known);
    reading ??= read()
      .catch((): EscrowPresence => "UNREAD")
      .then((presence) => {
        if (presence !== "UNREAD") known = presence;
        reading = undefined;
        return presence;
      });
    return reading;
  };
}
