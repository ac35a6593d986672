import { type Address, erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PaidTier } from "../api/keys/planCatalogue";
import type { IssuedKey, PurchaseIntent } from "../api/keys/records";
import { createDevnetClient } from "../devnet/client";
import type { Manifest } from "../devnet/manifest";

/** Claim refusals that only mean "not yet": the payment is still being mined, indexed or confirmed. */
const notYet = new Set(["PAYMENT_NOT_FOUND", "PAYMENT_NOT_INDEXED", "PAYMENT_NOT_FINAL"]);

/**
 * Buys a `tier` key from a running devnet service over HTTP, as a user does: a purchase intent for
 * devnet test user `user`, its USDC payment, and the claim, retried until the payment is indexed and
 * has its confirmations (at most `timeoutMs`; a claim whose connection fails, or that is refused as
 * retryable, is sent again). `onPaid`
 * learns the payment's transaction once it is mined. Resolves with the raw key.
 */
export async function buyKey(
  baseUrl: string,
  manifest: Manifest,
  tier: PaidTier,
  user: number,
  timeoutMs = 120_000,
  onPaid: (txHash: Hex) => void = () => {},
): Promise<string> {
  const account = manifest.accounts.users[user];
  const usdc = manifest.tokens.USDC?.address;
  if (!account || !usdc) throw new Error(`the devnet manifest has no user ${user} or no USDC`);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const offer = await post("/v1/subscribe/intents", { tier, userWallet: account.address });
  if (offer.status !== 200) throw new Error(`purchase intent: ${offer.status} ${JSON.stringify(offer.body)}`);
  const { intent } = offer.body as unknown as PurchaseIntent;
  const client = createDevnetClient(manifest.rpcUrl, account.privateKey);
  const txHash = await client.writeContract({
    address: usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [intent.payTo as Address, BigInt(intent.usdc.amount)],
  });
  // Bounded: a reorganisation can drop the transfer, which then never gets a receipt.
  await client.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs });
  onPaid(txHash);
  const signature = await privateKeyToAccount(account.privateKey).signMessage({ message: intent.messageToSign });
  const started = Date.now();
  for (;;) {
    const claim = await post("/v1/subscribe/crypto", { intentId: intent.intentId, signature, txHash }).catch(() => undefined);
    if (claim?.status === 200) return (claim.body as unknown as IssuedKey).apiKey as string;
    const retryable = claim && (notYet.has(String(claim.body.error)) || claim.body.retryable === true);
    if ((claim && !retryable) || Date.now() - started > timeoutMs) {
      throw new Error(`purchase claim: ${claim ? `${claim.status} ${JSON.stringify(claim.body)}` : "no answer"}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
