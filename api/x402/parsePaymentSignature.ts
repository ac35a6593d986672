import { z } from "zod";
import { AddressParam } from "../http/params";

/**
 * Longest PAYMENT-SIGNATURE header read, in characters. A payment with an ECDSA signature is about
 * 1 KiB of base64; 8 KiB leaves room for a smart wallet's longer signature and extensions, and bounds
 * what is decoded and parsed for any caller.
 */
export const maxPaymentSignatureLength = 8 * 1024;

// No messages: a refused payload is one reason code, whatever the field.
const uint256 = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/)
  .refine((s) => BigInt(s) < 2n ** 256n);
const hexBytes = (pattern: RegExp) => z.string().regex(pattern) as unknown as z.ZodType<`0x${string}`>;

/** An EIP-3009 `transferWithAuthorization` as the client signed it (the "exact" scheme on EVM). */
export const Eip3009Authorization = z.strictObject({
  from: AddressParam,
  to: AddressParam,
  value: uint256,
  validAfter: uint256,
  validBefore: uint256,
  nonce: hexBytes(/^0x[0-9a-fA-F]{64}$/),
});
export type Eip3009Authorization = z.infer<typeof Eip3009Authorization>;

/**
 * What a v2 "exact" EVM PaymentPayload must be to be considered: the requirements the client accepted
 * (compared with ours afterwards) and an EIP-3009 authorization with its signature (65 bytes for an
 * EOA, longer for a smart wallet). Other payload kinds (Permit2) are not accepted here.
 */
export const ExactEvmPaymentPayload = z.object({
  x402Version: z.literal(2),
  accepted: z.looseObject({
    scheme: z.string(),
    network: z.string(),
    amount: z.string(),
    asset: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
    extra: z.record(z.string(), z.unknown()).optional(),
  }),
  payload: z.strictObject({
    authorization: Eip3009Authorization,
    signature: hexBytes(/^0x(?:[0-9a-fA-F]{2})+$/),
  }),
  resource: z.object({ url: z.string() }).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type ExactEvmPaymentPayload = z.infer<typeof ExactEvmPaymentPayload>;

const bytes32 = hexBytes(/^0x[0-9a-fA-F]{64}$/);

/** A batch-settlement channel's configuration (`ChannelConfig`): what its id is the hash of. */
const ChannelConfig = z.strictObject({
  payer: AddressParam,
  payerAuthorizer: AddressParam,
  receiver: AddressParam,
  receiverAuthorizer: AddressParam,
  token: AddressParam,
  withdrawDelay: z.number().int().nonnegative(),
  salt: bytes32,
});

/** A cumulative voucher: the most the receiver may claim from the channel, signed by its payerAuthorizer. */
const Voucher = z.strictObject({
  channelId: bytes32,
  maxClaimableAmount: uint256,
  signature: hexBytes(/^0x(?:[0-9a-fA-F]{2})+$/),
});

/**
 * What a v2 "batch-settlement" EVM PaymentPayload must be to be considered: a voucher on a channel, or a
 * deposit into it (by ERC-3009, the way USDC is deposited) with the call's voucher. A refund request is
 * not a paid call: not accepted here.
 */
export const BatchSettlementEvmPaymentPayload = z.object({
  x402Version: z.literal(2),
  accepted: ExactEvmPaymentPayload.shape.accepted.extend({ scheme: z.literal("batch-settlement") }),
  payload: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("voucher"), channelConfig: ChannelConfig, voucher: Voucher }),
    z.strictObject({
      type: z.literal("deposit"),
      channelConfig: ChannelConfig,
      voucher: Voucher,
      deposit: z.strictObject({
        amount: uint256,
        authorization: z.strictObject({
          erc3009Authorization: z.strictObject({
            validAfter: uint256,
            validBefore: uint256,
            salt: bytes32,
            signature: hexBytes(/^0x(?:[0-9a-fA-F]{2})+$/),
          }),
        }),
      }),
    }),
  ]),
  resource: z.object({ url: z.string() }).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type BatchSettlementEvmPaymentPayload = z.infer<typeof BatchSettlementEvmPaymentPayload>;

/** A payment of either scheme offered. */
export type EvmPaymentPayload = ExactEvmPaymentPayload | BatchSettlementEvmPaymentPayload;

/** Whether `payload` pays with batch-settlement (its schema checked it as such). */
export const isBatchSettlementPayment = (payload: EvmPaymentPayload): payload is BatchSettlementEvmPaymentPayload =>
  payload.accepted.scheme === "batch-settlement";

/** Why a PAYMENT-SIGNATURE header is not a payment we consider (stable snake_case codes). */
export type PaymentSignatureProblem =
  | "payment_signature_too_long"
  | "payment_signature_not_base64"
  | "payment_signature_not_json"
  | "payment_signature_not_exact_evm_v2"
  | "payment_signature_not_batch_settlement_evm_v2";

export type ParsePaymentSignatureReturnType = { ok: true; payload: EvmPaymentPayload } | { ok: false; reason: PaymentSignatureProblem };

const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Reads a PAYMENT-SIGNATURE header (base64 of a JSON PaymentPayload): at most
 * `maxPaymentSignatureLength` characters, standard base64, JSON, then the v2 exact or batch-settlement EVM
 * shape. Never throws: anything else is a reason code.
 */
export function parsePaymentSignature(header: string): ParsePaymentSignatureReturnType {
  if (header.length > maxPaymentSignatureLength) return { ok: false, reason: "payment_signature_too_long" };
  if (!base64.test(header) || header.length % 4 === 1) return { ok: false, reason: "payment_signature_not_base64" };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return { ok: false, reason: "payment_signature_not_json" };
  }
  return parsePaymentPayload(json);
}

/** Checks a decoded PaymentPayload (from a header, or an MCP request's metadata) against the accepted shape of its scheme. */
export function parsePaymentPayload(value: unknown): ParsePaymentSignatureReturnType {
  if ((value as { accepted?: { scheme?: unknown } } | null)?.accepted?.scheme === "batch-settlement") {
    const batch = BatchSettlementEvmPaymentPayload.safeParse(value);
    return batch.success ? { ok: true, payload: batch.data } : { ok: false, reason: "payment_signature_not_batch_settlement_evm_v2" };
  }
  const parsed = ExactEvmPaymentPayload.safeParse(value);
  return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, reason: "payment_signature_not_exact_evm_v2" };
}
