import { getAddress, verifyMessage } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { describe, expect, test } from "vitest";
import {
  type ChallengeFields,
  challengeOrigin,
  freeKeyMessage,
  type PurchaseTerms,
  purchaseMessage,
  recoveryMessage,
} from "../../api/keys/intentMessage";

// Anvil's first two well-known development accounts.
const wallet = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const stranger = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b7869c2");

const fields: ChallengeFields = {
  origin: "https://api.example.test:8443/some/path?x=1",
  intentId: "int_0123456789abcdef01234567",
  wallet: wallet.address.toLowerCase() as `0x${string}`,
  createdAt: new Date("2026-11-23T17:00:00.000Z"),
  expiresAt: new Date("2026-11-23T17:10:00.000Z"),
};

const terms: PurchaseTerms = {
  tier: "GROWTH",
  durationDays: 90,
  amountUsdc: 807_300_000n,
  amountWei: 250_000_000_000_000_000n,
  payTo: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  renewKeyId: null,
};

describe("challenge messages", () => {
  test("a free-key claim is a Sign-In with Ethereum message naming our origin, Base, the wallet and the intent", () => {
    const message = freeKeyMessage(fields);
    expect(parseSiweMessage(message)).toEqual({
      domain: "api.example.test:8443",
      address: wallet.address,
      statement: "Claim a free API key of the Base capability service.",
      uri: "https://api.example.test:8443",
      version: "1",
      chainId: 8453,
      nonce: "0123456789abcdef01234567",
      issuedAt: fields.createdAt,
      expirationTime: fields.expiresAt,
      requestId: fields.intentId,
    });
  });

  test("the signature of the wallet recovers to it, and to no other wallet; the message is valid only for our domain while unexpired", async () => {
    const message = freeKeyMessage(fields);
    const signature = await wallet.signMessage({ message });
    expect(await verifyMessage({ address: wallet.address, message, signature })).toBe(true);
    expect(await verifyMessage({ address: stranger.address, message, signature })).toBe(false);
    const parsed = parseSiweMessage(message);
    const at = new Date("2026-11-23T17:05:00.000Z");
    expect(validateSiweMessage({ message: parsed, domain: "api.example.test:8443", address: wallet.address, time: at })).toBe(true);
    expect(validateSiweMessage({ message: parsed, domain: "evil.example.test", time: at })).toBe(false);
    expect(validateSiweMessage({ message: parsed, time: new Date("2026-11-23T17:10:01.000Z") })).toBe(false);
  });

  test("recovery and free claims differ in their statement only", () => {
    const free = parseSiweMessage(freeKeyMessage(fields));
    const recovery = parseSiweMessage(recoveryMessage(fields));
    expect(recovery.statement).toBe("Recover the paid API key of this wallet (its current secret is revoked and replaced).");
    expect({ ...recovery, statement: free.statement }).toEqual(free);
  });

  test("a purchase names every frozen term: new key or renewal, tier, days, exact amounts, payee", () => {
    expect(parseSiweMessage(purchaseMessage(fields, terms)).statement).toBe(
      "Buy a new API key; tier GROWTH; 90 days; pay exactly 807.30 USDC (807300000 base units); or exactly 0.25 ETH (250000000000000000 wei); to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8; from this wallet, in one transaction sent by this wallet.",
    );
    expect(
      parseSiweMessage(
        purchaseMessage(fields, {
          ...terms,
          tier: "PRO",
          durationDays: 365,
          amountUsdc: 9_990_000_000n,
          amountWei: null,
          renewKeyId: "key_0123456789abcdef01234567",
        }),
      ).statement,
    ).toBe(
      "Renew API key key_0123456789abcdef01234567; tier PRO; 365 days; pay exactly 9990.00 USDC (9990000000 base units); ETH not offered (no live ETH quote); to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8; from this wallet, in one transaction sent by this wallet.",
    );
  });

  test("a signature over one purchase's terms does not verify for other terms", async () => {
    const signature = await wallet.signMessage({ message: purchaseMessage(fields, terms) });
    const cheaper = purchaseMessage(fields, { ...terms, amountUsdc: 132_300_000n });
    expect(await verifyMessage({ address: wallet.address, message: cheaper, signature })).toBe(false);
  });
});

describe("challengeOrigin", () => {
  test("the origin and chain our challenge names", () => {
    expect(challengeOrigin(freeKeyMessage(fields))).toEqual({ origin: "https://api.example.test:8443", chainId: 8453 });
    expect(challengeOrigin(purchaseMessage({ ...fields, origin: "http://localhost:42069" }, terms))).toEqual({
      origin: "http://localhost:42069",
      chainId: 8453,
    });
  });

  test("null for text that is not a challenge, one without a chain, or one whose URI is no URL", () => {
    expect(challengeOrigin("Claim a free API key of the Base capability service.")).toBeNull();
    const message = freeKeyMessage(fields);
    expect(challengeOrigin(message.replace(/\nChain ID: 8453/, ""))).toBeNull();
    expect(challengeOrigin(message.replace(/\nURI: [^\n]+/, ""))).toBeNull();
    expect(challengeOrigin(message.replace(/\nURI: [^\n]+/, "\nURI: not a url"))).toBeNull();
  });

  test("the wallet address in the message is checksummed whatever case it was given in", () => {
    expect(freeKeyMessage(fields)).toContain(`\n${getAddress(fields.wallet)}\n`);
  });
});
