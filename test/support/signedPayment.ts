import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Address, getAddress, type Hex, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { authorizationTypedData } from "../../api/x402/authorizationSignature";

/** What a hand-made payment changes from the challenge's terms (the accepted echo and the signed authorization). */
export type PaymentTerms = Partial<Pick<PaymentRequirements, "network" | "asset" | "payTo" | "amount">> & {
  /** The signed authorization's recipient and value, when they differ from the accepted terms. */
  to?: Address;
  value?: string;
  validAfter?: bigint;
  validBefore?: bigint;
  /** The EIP-712 domain's chain (default: the accepted network's). */
  chainId?: number;
  /** The authorization's nonce (default: a random one): another's, copied from the chain, for a forgery. */
  nonce?: Hex;
};

/**
 * A PAYMENT-SIGNATURE signed for real by `signer` over an EIP-3009 authorization, with the challenge's
 * terms changed as `terms` says (as a client with other terms would sign it): the negative cases the
 * official client cannot be asked to produce.
 */
export async function signedPayment(
  requirements: PaymentRequirements,
  signer: Hex,
  terms: PaymentTerms = {},
  from?: Address,
): Promise<{ header: string; payload: PaymentPayload }> {
  const account = privateKeyToAccount(signer);
  const accepted = {
    ...requirements,
    ...Object.fromEntries(Object.entries(terms).filter(([k]) => ["network", "asset", "payTo", "amount"].includes(k))),
  };
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: from ?? account.address,
    to: getAddress(terms.to ?? accepted.payTo),
    value: terms.value ?? accepted.amount,
    validAfter: (terms.validAfter ?? now - 600n).toString(),
    validBefore: (terms.validBefore ?? now + 300n).toString(),
    nonce: terms.nonce ?? toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const signature = await account.signTypedData(
    authorizationTypedData(authorization, {
      name: String(accepted.extra?.name ?? "USD Coin"),
      version: String(accepted.extra?.version ?? "2"),
      chainId: terms.chainId ?? Number(accepted.network.split(":")[1]),
      asset: accepted.asset,
    }),
  );
  const payload = { x402Version: 2, accepted, payload: { authorization, signature } } as PaymentPayload;
  return { header: encodePaymentSignatureHeader(payload), payload };
}
