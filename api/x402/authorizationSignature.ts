import type { PaymentRequirements } from "@x402/core/types";
import {
  createPublicClient,
  fallback,
  getAddress,
  http,
  isAddressEqual,
  isErc6492Signature,
  isErc8010Signature,
  recoverTypedDataAddress,
} from "viem";
import { transferWithAuthorizationTypes } from "../../abis/FiatTokenAbi";
import type { RpcProvider } from "../chain/providers";
import type { ExactEvmPaymentPayload } from "./parsePaymentSignature";

/**
 * Whether the payload's EIP-3009 authorization is signed by its `from` for the token of `terms`; throws
 * when a smart wallet's signature cannot be checked because the chain cannot be read.
 */
export type CheckAuthorizationSignature = (payload: ExactEvmPaymentPayload, terms: PaymentRequirements) => Promise<boolean>;

/**
 * Checks an authorization's signature alone (not its nonce, balance or time window): what tells the
 * payer's own retry of a payment already taken from a copy of its `from` and `nonce`. The signature is
 * recovered without the chain first; only when it is not the payer's and the payer may be a smart wallet
 * (code at its address, or an ERC-6492/8010 wrapped signature) is it checked by a call through
 * `providers`, as x402's verification does. A forgery for an EOA costs one code read, never a call, and a
 * signature that cannot be recovered is a refusal, not an outage.
 */
export function authorizationSignatureCheck(providers: readonly RpcProvider[]): CheckAuthorizationSignature {
  const client = createPublicClient({
    transport: fallback(providers.map((provider) => http(provider.url, { timeout: provider.timeoutMs }))),
  });
  return async (payload, terms) => {
    const { authorization, signature } = payload.payload;
    const address = getAddress(authorization.from);
    const typedData = authorizationTypedData(authorization, {
      name: String(terms.extra?.name),
      version: String(terms.extra?.version),
      chainId: Number(terms.network.split(":")[1]),
      asset: terms.asset,
    });
    const recovered = await recoverTypedDataAddress({ ...typedData, signature }).catch(() => null);
    if (recovered && isAddressEqual(recovered, address)) return true;
    const wrapped = isErc6492Signature(signature) || isErc8010Signature(signature);
    if (!wrapped && !(await client.getCode({ address }))) return false;
    return client.verifyTypedData({ address, ...typedData, signature });
  };
}

/** An EIP-3009 authorization as the EIP-712 typed data its signature is over, for the token `domain` names. */
export function authorizationTypedData(
  authorization: ExactEvmPaymentPayload["payload"]["authorization"],
  domain: { name: string; version: string; chainId: number; asset: string },
) {
  return {
    domain: { name: domain.name, version: domain.version, chainId: domain.chainId, verifyingContract: getAddress(domain.asset) },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  } as const;
}
