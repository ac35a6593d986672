import { createHash } from "node:crypto";
import type { AuthorizerSigner } from "@x402/evm/batch-settlement/server";
import {
  createEIP712OfferReceiptIssuer,
  type EIP712SignedReceipt,
  hashReceiptTypedData,
  type OfferReceiptIssuer,
} from "@x402/extensions/offer-receipt";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseChainId, baseNetwork } from "../../base/baseChain";

/** EIP-712 domain of a paid answer: what the x402 receipt leaves out (the body served, the price, the block). */
export const paidAnswerDomain = { name: "x402 paid answer", version: "1", chainId: baseChainId } as const;

/** EIP-712 types of a paid answer; `receipt` is the hash of the x402 receipt it completes (`hashReceiptTypedData`). */
export const paidAnswerTypes = {
  PaidAnswer: [
    { name: "receipt", type: "bytes32" },
    { name: "route", type: "string" },
    { name: "resourceUrl", type: "string" },
    { name: "network", type: "string" },
    { name: "asset", type: "address" },
    { name: "payTo", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "transaction", type: "bytes32" },
    { name: "bodySha256", type: "bytes32" },
    { name: "observationBlock", type: "uint256" },
  ],
} as const;

/** A paid answer's fields as signed (numbers as decimal strings on the wire). */
export type PaidAnswerPayload = {
  receipt: Hex;
  route: string;
  resourceUrl: string;
  network: string;
  asset: Address;
  payTo: Address;
  amount: string;
  transaction: Hex;
  bodySha256: Hex;
  /** The block the answer was observed at (capability and market answers); 0 when it names none. */
  observationBlock: string;
};

export type SignedPaidAnswer = { format: "eip712"; payload: PaidAnswerPayload; signature: Hex };

/** The typed-data message of a paid answer, for signing and for viem's `verifyTypedData`. */
export function paidAnswerMessage(payload: PaidAnswerPayload) {
  return { ...payload, amount: BigInt(payload.amount), observationBlock: BigInt(payload.observationBlock) };
}

/** SHA-256 of the bytes of an answer's body, as 0x-hex. */
export function bodySha256(body: string): Hex {
  return `0x${createHash("sha256").update(body, "utf8").digest("hex")}`;
}

export type X402Signer = {
  address: Address;
  /** `did:pkh:<Base network>:<address>`: the key identifier named in offers and receipts. */
  kid: string;
  /** x402's offer-receipt issuer (EIP-712): signed offers in challenges, receipts of settlements. */
  issuer: OfferReceiptIssuer;
  /** Signs the paid answer that completes `receipt`. */
  signPaidAnswer(receipt: EIP712SignedReceipt, fields: Omit<PaidAnswerPayload, "receipt">): Promise<SignedPaidAnswer>;
  /**
   * The batch-settlement channels' receiverAuthorizer: it signs their claims and refunds. The service's
   * one key, so every replica serves the same channels whatever facilitator submits for it.
   */
  receiverAuthorizer: AuthorizerSigner;
};

/** The service's signing key for offers, receipts and paid answers (EIP-712, one key). */
export function createX402Signer(privateKey: Hex): X402Signer {
  const account = privateKeyToAccount(privateKey);
  const kid = `did:pkh:${baseNetwork}:${account.address}`;
  const signTypedData = (params: Parameters<typeof account.signTypedData>[0]) => account.signTypedData(params);
  return {
    address: account.address,
    kid,
    issuer: createEIP712OfferReceiptIssuer(kid, signTypedData as never),
    receiverAuthorizer: { address: account.address, signTypedData: signTypedData as AuthorizerSigner["signTypedData"] },
    async signPaidAnswer(receipt, fields) {
      const payload = { ...fields, receipt: hashReceiptTypedData(receipt.payload) };
      const signature = await account.signTypedData({
        domain: paidAnswerDomain,
        types: paidAnswerTypes,
        primaryType: "PaidAnswer",
        message: paidAnswerMessage(payload),
      });
      return { format: "eip712", payload, signature };
    },
  };
}
