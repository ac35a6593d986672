import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, erc20Abi, getAddress, type Hex, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import type { Manifest } from "../../devnet/manifest";
import { testClient } from "../support/devnet";

/** A Hono app or anything else that answers a fetch Request. */
export type Fetcher = { fetch: (request: Request) => Response | Promise<Response> };

/**
 * The official x402 client (`@x402/fetch` with the "exact" EVM scheme) paying as `privateKey`, in
 * front of `app`. Its spend controls allow Base USDC up to 0.10 USD a call (x402 refuses unknown
 * assets and caps spending by default).
 */
export function payingFetch(app: Fetcher, privateKey: Hex) {
  const client = new x402Client()
    .register(baseNetwork, new ExactEvmScheme(privateKeyToAccount(privateKey)))
    .setSpendControls({ maxAmountPerPayment: "$0.10" });
  return wrapFetchWithPayment((input, init) => Promise.resolve(app.fetch(new Request(input, init))), client);
}

/** The challenge an unpaid request gets (decoded from its PAYMENT-REQUIRED header). */
export async function challengeOf(app: Fetcher, url: string): Promise<PaymentRequired> {
  const res = await app.fetch(new Request(url));
  const header = res.headers.get("payment-required");
  if (res.status !== 402 || !header) throw new Error(`no challenge at ${url}: ${res.status} ${await res.text()}`);
  return decodePaymentRequiredHeader(header);
}

/** What a hand-made payment changes from the challenge's terms (the accepted echo and the signed authorization). */
export type PaymentTerms = Partial<Pick<PaymentRequirements, "network" | "asset" | "payTo" | "amount">> & {
  /** The signed authorization's recipient and value, when they differ from the accepted terms. */
  to?: Address;
  value?: string;
  validAfter?: bigint;
  validBefore?: bigint;
  /** The EIP-712 domain's chain (default: the accepted network's). */
  chainId?: number;
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
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const signature = await account.signTypedData({
    domain: {
      name: String(accepted.extra?.name ?? "USD Coin"),
      version: String(accepted.extra?.version ?? "2"),
      chainId: terms.chainId ?? Number(accepted.network.split(":")[1]),
      verifyingContract: getAddress(accepted.asset),
    },
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payload = { x402Version: 2, accepted, payload: { authorization, signature } } as PaymentPayload;
  return { header: encodePaymentSignatureHeader(payload), payload };
}

/** Devnet USDC held by `address` (atomic units). */
export function usdcBalance(manifest: Manifest, address: Address): Promise<bigint> {
  return testClient(manifest).readContract({ address: baseUsdc, abi: erc20Abi, functionName: "balanceOf", args: [address] });
}

/** A new devnet key with `eth` ETH for gas and no USDC: a gas key, or a payer that cannot pay. */
export async function fundedKey(manifest: Manifest, eth = "10"): Promise<Hex> {
  const key = generatePrivateKey();
  await testClient(manifest).setBalance({ address: privateKeyToAccount(key).address, value: parseEther(eth) });
  return key;
}

/** Transfer events of devnet USDC from `from` in blocks after `sinceBlock`. */
export async function usdcTransfersFrom(manifest: Manifest, from: Address, sinceBlock: bigint) {
  return testClient(manifest).getContractEvents({
    address: baseUsdc,
    abi: erc20Abi,
    eventName: "Transfer",
    args: { from },
    fromBlock: sinceBlock + 1n,
  });
}
