import fc from "fast-check";
import { type Address, type Hex, serializeErc6492Signature } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { IntentEnvelope } from "../../api/keys/records";
import { routes } from "../../api/routes/routeList";
import { anyString, hexBytes, hexDigits } from "./arbitraries";
import { propertyApp, readAnswer, undocumentedAnswer } from "./support";

/**
 * Property tests of signed challenge claims (`POST /v1/subscribe/free/claim`, and the recovery claim's
 * body), through createApp against the devnet: no forged or malformed `{intentId, signature}` is ever a
 * 200, nor a 500. Cases per property are stated at each `numRuns`; its tests take 3-4 s on an idle 2-core
 * machine, 8-12 s with two CPU hogs and the other property files beside them (every signature that does not
 * recover to the wallet locally is checked on the devnet by the ERC-6492 validator).
 */

const { app, manifest, close } = propertyApp();
afterAll(close);

const postJson = (path: string, body: string) =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body });

/** Open free-key challenges: for fresh EOAs (their keys held here) and for devnet contracts (ERC-1271 path). */
type OpenIntent = { intentId: string; wallet: Address; message: string; privateKey: Hex | null };
const intents: OpenIntent[] = [];

beforeAll(async () => {
  const eoas = Array.from({ length: 3 }, () => generatePrivateKey());
  const contracts = [manifest.contracts.diamond, manifest.payoutAddress, Object.values(manifest.contracts)[0]].filter(
    (a): a is Address => a !== undefined,
  );
  const wallets: [Address, Hex | null][] = [
    ...eoas.map((k) => [privateKeyToAccount(k).address, k] as [Address, Hex]),
    ...contracts.map((a) => [a, null] as [Address, null]),
  ];
  for (const [wallet, privateKey] of wallets) {
    const res = await postJson(routes.freeChallenge.path, JSON.stringify({ userWallet: wallet }));
    expect(res.status).toBe(200);
    const { intent } = (await res.json()) as IntentEnvelope;
    intents.push({ intentId: intent.intentId, wallet, message: intent.messageToSign, privateKey });
  }
});

/** intentIds: a real open one, a well-formed unknown one, near misses, anything. */
const intentId = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((i) => intents[i % intents.length]?.intentId ?? "") },
  { weight: 2, arbitrary: hexBytes(12, 12).map((h) => `int_${h}`) },
  { weight: 1, arbitrary: fc.nat().map((i) => (intents[i % intents.length]?.intentId ?? "").toUpperCase()) },
  { weight: 1, arbitrary: anyString(40) },
);

/** Signatures: 65 random bytes (any v), longer ones (ERC-1271 / ERC-6492 lengths), ERC-6492 wrappers of junk, near misses. */
const signature = fc.oneof(
  { weight: 4, arbitrary: hexBytes(64, 64).chain((rs) => fc.constantFrom("1b", "1c", "00", "01", "ff").map((v) => `0x${rs}${v}`)) },
  { weight: 2, arbitrary: hexBytes(65, 300).map((h) => `0x${h}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...Object.values(manifest.contracts)), hexBytes(0, 100), hexBytes(0, 100))
      .map(([factory, calldata, inner]) =>
        serializeErc6492Signature({ address: factory as Address, data: `0x${calldata}`, signature: `0x${inner}` }),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom(`0x${"00".repeat(65)}`, `0x${"ff".repeat(65)}`, `0x${"ff".repeat(32)}${"7f".repeat(32)}1b`) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      hexDigits(0, 140).map((h) => `0x${h}`),
      anyString(80),
    ),
  },
);

describe("POST /v1/subscribe/free/claim, through createApp", () => {
  test("behavior: arbitrary bodies and {intentId, signature} strings are never a 200 nor a 500 (300 cases)", async () => {
    const body = fc.oneof(
      fc.tuple(anyString(40), anyString(140)).map(([i, s]) => JSON.stringify({ intentId: i, signature: s })),
      fc.tuple(intentId, signature).map(([i, s]) => JSON.stringify({ intentId: i, signature: s })),
      fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
      fc
        .tuple(intentId, signature, fc.jsonValue({ maxDepth: 1 }))
        .map(([i, s, extra]) => JSON.stringify({ intentId: i, signature: s, extra })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(routes.freeClaim, routes.recoveryClaim), body, async (route, text) => {
        const answer = await readAnswer(await postJson(route.path, text));
        expect(undocumentedAnswer(answer, route), text).toBeNull();
        expect(answer.status, text).not.toBe(200);
      }),
      { numRuns: 300 },
    );
  });

  test("behavior: random signatures of real open intents (EOA and contract wallets) are refused, never a 200 nor a 500 (200 cases)", async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.nat(), signature, async (i, sig) => {
        const intent = intents[i % intents.length] as OpenIntent;
        const text = JSON.stringify({ intentId: intent.intentId, signature: sig });
        const answer = await readAnswer(await postJson(routes.freeClaim.path, text));
        const code = (answer.body as { error?: string } | undefined)?.error ?? String(answer.status);
        seen.set(code, (seen.get(code) ?? 0) + 1);
        expect(undocumentedAnswer(answer, routes.freeClaim), text).toBeNull();
        expect(answer.status, text).not.toBe(200);
      }),
      { numRuns: 200 },
    );
    // The cases reached the signature check, not only the schema.
    expect(seen.get("SIGNATURE_INVALID") ?? 0).toBeGreaterThan(0);
  });

  test("error: a real signature by another key, or by the wallet over another message, is 401 SIGNATURE_INVALID (30 cases)", async () => {
    const eoaIntents = () => intents.filter((i) => i.privateKey !== null);
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.boolean(), anyString(40), async (i, strangerSigns, suffix) => {
        const eoa = eoaIntents();
        const intent = eoa[i % eoa.length] as OpenIntent;
        const signer = privateKeyToAccount(strangerSigns ? generatePrivateKey() : (intent.privateKey as Hex));
        const message = strangerSigns ? intent.message : `${intent.message}${suffix || "\n"}`;
        const sig = await signer.signMessage({ message });
        const answer = await readAnswer(
          await postJson(routes.freeClaim.path, JSON.stringify({ intentId: intent.intentId, signature: sig })),
        );
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ error: "SIGNATURE_INVALID" });
      }),
      { numRuns: 30 },
    );
  });

  test("default: after all the cases above, the intents were still open: the wallet's own signature claims its key", async () => {
    const intent = intents.find((i) => i.privateKey !== null) as OpenIntent;
    const sig = await privateKeyToAccount(intent.privateKey as Hex).signMessage({ message: intent.message });
    const res = await postJson(routes.freeClaim.path, JSON.stringify({ intentId: intent.intentId, signature: sig }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ISSUED" });
  });
});
