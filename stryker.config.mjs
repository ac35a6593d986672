// @ts-check
/**
 * Mutation testing: `npm run mutate` (not part of `npm test` or CI). Mutates the modules where a wrong
 * answer grants access, money or a false observation, and runs only the fast tests that reach them
 * (vitest.mutate.config.ts: no devnet), each mutant against the tests that cover it (perTest). A static mutant
 * (one that acts while a module loads, so no test can be said to cover it) runs the test files that import
 * its module (`related`), not every fast test.
 * Incremental: reports/stryker-incremental.json is committed, so a run re-tests only mutants whose
 * code or tests changed; delete it (or pass --force) for a full run.
 * Run it with REDIS_URL (the rate limits' Redis choice) and UNIT_DATABASE_URL (a Postgres server: each test
 * process then keeps its app store in a database of its own there, test/support/fileAppStore.ts, instead of
 * starting an in-memory PGlite, which costs each mutant 0.5-1.7 s): a full run took 25 min 25 s with both,
 * 38 min 42 s on PGlite.
 *
 * Included since their fast tests exist (test/unit/credits.test.ts, on an in-memory PGlite store):
 * api/access/chargeCredits.ts, api/access/createCreditService.ts.
 *
 * Included with their fast tests (test/unit/x402Payments.test.ts, real EIP-3009 signatures by real keys):
 * the x402 header parser, reason codes, terms, payment ids, and the shared probe and timeout helpers.
 *
 * Included with their fast tests on an in-memory PGlite store and an injected clock: api/access/
 * createCreditLeases.ts (test/unit/creditLeaseRules.test.ts, fake timers for the idle return, and
 * createCreditLeases.test.ts through the credit service) and api/keys/createKeyCache.ts (test/unit/createKeyCache.test.ts).
 *
 * Included with their fast tests: api/chain/pinObservationBlock.ts, the status trust rule
 * (test/chain/pinObservationBlock.test.ts: an injected readHead answering from an in-memory table of provider
 * heads and per-tag hashes, an injected clock, and a local HTTP stub for the default JSON-RPC read), and
 * api/access/createRateLimits.ts (test/unit/createRateLimits.test.ts: the in-memory budgets under fake timers, and
 * which budgets it keeps in Redis: the machine's, at REDIS_URL or 127.0.0.1:6379, with two limiters sharing
 * a keyed budget, and a closed port for the fall back to memory).
 *
 * Included with its fast test (test/unit/decidePayment.test.ts): api/payments/decidePayment.ts, the
 * payment verifier's rules (sender, exact amount, recipient, index agreement, finality, expiry; USDC and
 * ETH). The test feeds it what the reads return: PaymentTransaction objects as readPaymentTransaction
 * builds them, the index's `payment` rows and its head. The reads themselves (createPaymentVerifier.ts
 * and readPaymentTransaction.ts: providers given as URLs, the index's tables) stay covered only by
 * test/access/purchase.test.ts on the devnet, which sends real USDC/ETH payments.
 *
 * Included with its fast test (test/unit/createPurchaseService.test.ts): api/keys/createPurchaseService.ts,
 * intents (price, wei at the quote, frozen terms, renewal targets) and claims (signer, replay, expiry,
 * renewal, the redemption recorded once), on an in-memory PGlite store, with real signatures by anvil's
 * keys, the real key hasher, a set clock, a local EOA wallet check (and the real verifier with no
 * provider), and decidePayment applied to recorded reads. The devnet test still covers its wiring.
 *
 * Included with their fast tests on an in-memory PGlite store, with real signatures by anvil's keys, the
 * real key hasher, a set clock and a local EOA wallet check (test/support/keyClaims.ts):
 * api/keys/createFreeKeyService.ts (test/unit/createFreeKeyService.test.ts: the challenge and its row, one free
 * key per wallet even once revoked, signer, replay, races, expiry to the millisecond, origin and chain, the
 * cap on open intents, the purge, the counters), api/keys/createRecoveryService.ts
 * (test/unit/createRecoveryService.test.ts: a known and an unknown wallet's challenges compared whole and row by
 * row, the target (the unrevoked paid key expiring last, or the one a txHash paid for), the new secret
 * keeping tier and expiry and the old one refused, consumed, expired, wrong signer, decoy, changed target),
 * api/keys/createKeyService.ts (test/unit/createKeyService.test.ts: authentication by keyed hash, expiry,
 * KeySelf and the rates in force, revocation seen at once, recorded and counted once, never recovered), and
 * api/keys/challenges.ts, which these and the purchase service share. The devnet tests
 * (test/access/freeKey.test.ts, purchase.test.ts, intentLimits.test.ts) still cover the routes' wiring.
 *
 * Included with their fast tests: api/http/requestHeader.ts (test/unit/requestHeader.test.ts: raw HTTP
 * requests to our Node listener on a loopback port, repeated header lines, an MCP-style request made in
 * the app), which reads the credential headers, api/http/validateParameters.ts
 * (test/unit/validateParameters.test.ts), which validates every route's path and query parameters,
 * api/http/answer.ts (test/unit/answer.test.ts, and test/unit/credits.test.ts for the credit meter's
 * step), which carries every answer's middleware headers, and api/access/fingerprintCredential.ts
 * (test/unit/fingerprintCredential.test.ts: one keep-alive connection presenting credentials that differ
 * in their last character or their length), whose per-connection memory must never answer another
 * credential's fingerprint.
 *
 * Included with its fast test (test/unit/isWhaleTransfer.test.ts): src/isWhaleTransfer.ts, the whale rule
 * (at or above the token's threshold) the indexer applies to every tracked transfer.
 *
 * Included with their fast tests: the x402 payment code. The service's roles, put together by
 * api/x402/createX402Service.ts (test/unit/createX402Service.test.ts): the offer (createX402Offer.ts), admission (terms,
 * payment-identifier ids, claims and their fence: createX402Admission.ts), retries of a claimed payment (pending
 * settlements and stale claims resolved on retry: createX402Recovery.ts), settlement records and release
 * (createX402Settlement.ts), the signed receipt (createPaymentResponse.ts), the refusal reasons (X402Facilitator.ts),
 * retention and api/x402/payPerCall.ts (test/x402/payPerCall.test.ts: the Hono side over
 * the real service), with api/store/x402PaymentQueries.ts under them, on an in-memory PGlite store, real EIP-3009
 * signatures by anvil's keys, a set clock, and test/support/recordedFacilitator.ts: a facilitator answering in the
 * shapes the in-process one gives (its getSupported as printed, verify and settle as @x402/evm builds them and
 * test/x402/ observes them); the chain's verdicts (confirmSettlement, resolvePending) are given to the service as the
 * functions they are. api/x402/confirmSettlement.ts and api/x402/resolvePendingSettlement.ts
 * (test/unit/confirmSettlement.test.ts, test/unit/resolvePendingSettlement.test.ts) read a recorded chain served over
 * JSON-RPC on a loopback port (test/support/recordedChain.ts: blocks, transactions and receipts, eth_call answers and
 * logs, as anvil answers them). api/x402/createRemoteFacilitator.ts (test/x402/createRemoteFacilitator.test.ts) talks to a
 * loopback HTTP facilitator; api/x402/createInProcessFacilitator.ts is tested where no settlement is mined
 * (test/unit/createInProcessFacilitator.test.ts: what it supports, its readiness, refusals, the chain down) and against a
 * chain that verifies and mines transferWithAuthorization (test/unit/createInProcessFacilitator.devnet.test.ts: anvil as
 * Base with the devnet's USDC fixture at Base's address, started by the test in about a second; a settlement mined,
 * five at once from one key, broadcasts whose answers the RPC proxy process cuts at once or later, the same payment
 * settled twice at once, the chain unreachable and back, one through a node without
 * eth_fillTransaction, one not mined within its timeout, and a broadcast whose first answer is lost and that a second
 * anvil, the fallback node, takes).
 *
 * Equivalent mutants (they survive; no input through the module's callers can tell them apart):
 * - clientAddressKey.ts `if (isIPv4(bare)) return bare` -> `if (false)`: an IPv4 address is not IPv6,
 *   so the next line returns it unchanged anyway.
 * - clientAddressKey.ts `[head = ""]` -> other default (no coverage): `split` always yields a first element.
 * - clientAddressKey.ts `tail === undefined ? [] : parse(tail)` -> `parse(tail)`: parse of undefined is [].
 * - clientAddressKey.ts dotted-quad regex without `$`: isIPv6 already admitted the address, and a dotted
 *   quad can only be its last part.
 * - createAuthFailureGuard.ts keyPrefix "svc_auth_failures" -> "": the limiter is this guard's own
 *   in-memory store; the prefix only namespaces keys inside it.
 * - createAuthFailureGuard.ts `lastPassed !== undefined &&` -> `true &&`: `now() - undefined` is NaN,
 *   and NaN < trustMs is false.
 * - createAuthFailureGuard.ts rethrow of a non-RateLimiterRes -> `if (false)`: RateLimiterMemory
 *   rejects only with RateLimiterRes; the branch guards a library change, unreachable from a test.
 * - createAuthFailureGuard.ts settle's `key !== undefined &&` -> `true &&`: settle is given only reserved admissions,
 *   and each carries its reservation's key.
 * - readCredential.ts `?.trim()` removed: header values reach Hono through fetch Headers / Node's
 *   parser, which already strip surrounding whitespace.
 * - readCredential.ts Bearer regex `\s*$` -> `\S*$`: `(\S+)` is greedy, so `\S*` matches nothing
 *   more, and the trailing whitespace `\s*` allowed is stripped by Headers before.
 * - readCredential.ts `?? ""` -> `?? "Stryker was here!"`: neither string is a Bearer header.
 * - rejectQueryCredentials.ts namesCredential's split `/[[\]]+/` -> `/[[\]]/`: splitting on each bracket
 *   instead of each run of them only adds empty parts, which name no credential.
 * - rejectQueryCredentials.ts `slice(query + 1)` -> `slice(query - 1)`: the first parameter's name
 *   gains the path's last character and "?"; the name check is anchored at the end and the key shape
 *   contains no "?", so no verdict changes.
 * - intentMessage.ts `/^int_/` -> `/int_/`: an intent id is `int_` + 24 hex (IntentIdParam), so the
 *   first match is at the start.
 * - intentMessage.ts `!parsed.uri || parsed.chainId === undefined` (three mutants: `if (false)`,
 *   `&&`, `|| false`): viem's parseSiweMessage yields URI and Chain ID together or neither (a
 *   message missing one loses both), and `new URL(undefined)` throws into the catch's null.
 * - confirmations.ts `count > 0n` -> `count >= 0n`: at count 0 both branches return 0.
 * - chargeCredits.ts `status < 200 ||` -> `false ||`: a Response's status is 200-599 (fetch
 *   refuses others), so no answer below 200 reaches this check.
 * - answer.ts answerHeaders' shortcuts (`c.res === state.built` and `missing.length === 0` -> false,
 *   the `.filter` of missing names removed): they only spare rebuilding an answer; a rebuilt one has
 *   the same headers, since Hono's `c.res` setter copies the answer's own headers back over ours; and
 *   `streamed` -> `true` (or the content type's prefix `""`): an answer built otherwise carries its whole body in one
 *   chunk, which @hono/node-server reads whole and sends with its length either way.
 * - requestHeader.ts `line.length !== wanted.length ||` -> `false ||`: a length check before the
 *   lowercase comparison, which alone decides.
 * - requestHeader.ts `Symbol.for("svc.nodeRequest")` -> `Symbol.for("")`: the listener and the reader both take
 *   the key from this module, so any registered name is the same key to both; no other code names either.
 * - validateParameters.ts the query's target `"query"` -> `""`: validationHook tells only `"json"` (INVALID_BODY) and
 *   `"param"` (INVALID_ADDRESS for an address) apart; every other target is INVALID_PARAMETER alike.
 * - fingerprintCredential.ts: the mutants that never reuse a connection's fingerprint (the reuse's
 *   condition -> false, sameInConstantTime's body removed or answering false, its length check ->
 *   `return false` always) compute the same fingerprint afresh: only the cost differs. `i < a.length`
 *   -> `<=`: charCodeAt past the end is NaN, and NaN ^ NaN is 0. The mutants that would reuse another
 *   credential's fingerprint are killed (test/unit/fingerprintCredential.test.ts).
 * - chargeCredits.ts creditRefusal, `balance.daily.remaining < cost` -> `true` and `<= cost`: a key is
 *   refused only when spendableNow (min of the cycle's and the day's remainder) is below the cost, so
 *   with `remaining >= cost` the day's remainder is necessarily below it.
 * - createCreditService.ts charge's reason (three mutants: `true && remaining >= cost`,
 *   `daily && true && ...`, `daily.remaining <= cost`): the reason is computed only after a
 *   refused spend, and the balance read then is short on the cycle or (free keys) on the day; a balance
 *   with both remainders at or above the cost is never refused.
 * - createCreditService.ts isoAt's memo, `isoTexts.set(...)` removed and `isoTexts.clear()` removed (no
 *   coverage: it takes 4096 distinct bounds), `text === undefined` -> `true`, and the size bound
 *   `>= 4096` -> `true` / `false` / `> 4096` / `< 4096`: the memo only saves formatting a date again
 *   (clearing it more or less often, or never using it); the text is the same. Some of these show as
 *   timeouts on a quiet machine and as survivors on a loaded one.
 * - bandDepth.ts `edge >= upTarget` -> `>` and `edge <= downTarget` -> `<`: at equality the crossed
 *   segment adds nothing and the final segment is empty, so the depth is the same.
 * - stableCurveDepth.ts the bisection's `< 0` -> `<= 0` (twice): they differ only where the curve's price
 *   equals the target exactly at an integer t (scale 1e36), below any figure's resolution.
 * - ratio.ts ceilDiv's guard `a <= 0n` -> `a < 0n`: at 0 the quotient (b - 1) / b is 0 too.
 * - quotePool.ts the `sqrtPriceX96 / liquidity / tick !== null` conjuncts: the indexer writes the three
 *   together (V3-style and V4 pools) or none (the others); `depth !== null` in `consistent`: the holdings
 *   walk visits every tick the depth walk does, with the same liquidity, so it fails whenever depth does;
 *   hookCanChangeSwap's `fee !== null` -> `true`: `null & flag` is 0, so a null fee never flags either.
 * - priceTokens.ts `prices.get(...)?.usd` -> `.usd`: a quote token is WETH only once WETH is priced, so
 *   the entry exists; `flag ?? "EMPTY"` -> `?? ""` (no coverage): quotePool flags every pool without a
 *   price or depth (EMPTY or INCONSISTENT_TICKS), so the fallback is never taken.
 * - ratio.ts isqrt's first guess `bits / 2` -> `bits * 2`: still above the root; Newton only takes longer.
 * - tickMath.ts `bit < 20` -> `<= 20`: bit 20 is never set in a tick within range; `tick > 0` -> `>= 0`:
 *   at tick 0, (2^256 - 1) / 2^128 rounds up to the same 2^96; maxUint256 `- 1n` -> `+ 1n`: the quotient
 *   differs only when the ratio divides 2^256, and no ratio of a positive tick is a power of two.
 * - createCreditLeases.ts `p.cost > 0` -> `true` / `p.cost >= 0` in grant's retry: a refused refill (cost 0)
 *   is retried at cost 0, which spends nothing and only refreshes this replica's copy of the row (its next
 *   grant asks less); the calls served and the credits counted are the same.
 * - createCreditLeases.ts `idleTimer.unref()` removed: an idle lease's timer then keeps the process alive
 *   until it gives the lease back (at most 2 s); nothing a caller receives differs. The idle timer's delay
 *   `Math.max(0, lease.lastDrawAt + leaseIdleMs - now())` -> `Math.min(0, ...)` or `lastDrawAt - leaseIdleMs`: the
 *   timer then fires at once, finds the lease not idle yet and is set again, until it is: the lease goes back at
 *   the same moment, after more timer callbacks.
 * - createKeyService.ts `revoked?.revokedAt` -> `revoked.revokedAt`: the row is always there (keys are never
 *   deleted), revoked by this call or by the racing one whose time it answers.
 * - createCreditLeases.ts serialize's cleanup (`() => undefined`, the whole condition `true` or `false`): a key's settled queue tail
 *   then stays in the map, and the next write chains on it as on Promise.resolve(); only memory differs.
 * - createCreditLeases.ts `waiting.delete(...)` removed, or its `=== 0` test -> `false`: a key's count then
 *   stays at 0 instead of absent, and both read as no call waiting (`?? 0`); each queued call's own `+ 1`
 *   precedes its `- 1`, so the `?? 1` default is never taken. Only the map keeps one number per key charged.
 * - createKeyCache.ts `generation += 1` -> `-= 1`: a drop only has to change the generation; a load compares
 *   it for equality, so counting down tells a drop as surely.
 * - createKeyCache.ts clear's `loading.get(secretHash)?.record` -> `.record`: not equivalent but untested. A read that
 *   ends after a newer read of its secret has ended would throw in a promise nobody awaits: an unhandled rejection,
 *   not an answer any caller receives.
 * - isWhaleTransfer.ts `threshold !== undefined &&` -> `true &&`: `amount >= undefined` is false for every
 *   amount, so an untracked token still gives no signal.
 * - pinObservationBlock.ts `blockNumber !== undefined &&` -> `true &&`: with no block requested the comparison
 *   left is `undefined > n`, which is false for every head.
 * - createPurchaseService.ts `.catch(() => null)` -> `() => undefined`: the quote is only tested for truth
 *   (the wei amount and the `eth` offer are null either way).
 * - createPurchaseService.ts `quote && amountWei !== null` -> `quote || amountWei !== null` and `quote && true`:
 *   amountWei is null exactly when there is no quote; `amountWei !== null` only narrows its type for TypeScript.
 * - createRecoveryService.ts `targetKeyId === null || targetSecretVersion === null` (three mutants: `&&`,
 *   `false || ...`, `... || false`): a recovery challenge stores its target's id and secret version together
 *   (both from one key row, where the version is NOT NULL) or neither (a decoy), so either test alone
 *   decides; the second only narrows the version's type for TypeScript.
 * - createX402Offer.ts `if (!requirements)` -> `true` and `requirementsByRoute.set(...)` removed: the terms are then
 *   rebuilt on each request from the same supported kinds (x402's initialization is still shared): the same terms.
 * - createX402Offer.ts the offer-receipt declaration `{ includeTxHash: true, offerValiditySeconds: 300 }` -> `{}` and
 *   `includeTxHash: false`: our receipts are issued by paymentResponseOf, always with the transaction (x402's own
 *   receipt enrichment is not used: settlePayment is given no declared extensions), and an offer's validity defaults
 *   to the terms' maxTimeoutSeconds, which is 300; transportOf's `getUrl`/`getMethod` -> `() => undefined` and
 *   `toLowerCase()` (no coverage): no registered extension reads them in our calls (the offers take the challenge's
 *   resource URL, discovery the method and the path).
 * - createPaymentResponse.ts `receipt.format === "eip712"` -> `true`: createX402Signer's issuer is EIP-712 only.
 * - createX402Recovery.ts `answer?.success && row.paymentResponse` -> `||`: a SETTLED row is written with both its answer
 *   and its PAYMENT-RESPONSE, and retention forgets both together.
 * - createX402Recovery.ts resolveFromChain's `{ status: "PENDING" }` -> `{}` / `{ status: "" }` (twice each): a
 *   resolution that is neither SETTLED nor FAILED is pending to its caller.
 * - createX402Admission.ts `if (identifier.id)` -> `true`: a lookup of the id null matches no row (`= NULL`).
 * - createX402Admission.ts the payer's funds read `.catch(() => null)` -> `() => undefined`: both are `!funds`, refused
 *   alike (PAYMENT_FACILITATOR_UNAVAILABLE).
 * - createX402Recovery.ts resolvable's `row.status === "SETTLED" && row.reason === recoveredClaim` -> `true && ...`: only
 *   a settlement recorded for a recovered claim carries that reason.
 * - createX402Recovery.ts `row.reason ?? "settlement_failed"` and `row.answer ?? "null"`, createX402Settlement.ts
 *   `outcome.reason ?? "settlement_failed"` -> `""` (no coverage): a FAILED row and a failed outcome always carry a
 *   reason, a PENDING row always keeps its answer.
 * (How long a waiting retry pauses between reads, when its wait ends, the pauses between a record's attempts, how often
 * the forgetting pass runs, and confirmSettlement's pause between reads were named here as "only sooner or later"; they
 * are killed now: test/unit/createX402Service.test.ts "how often a waiting retry reads", the record's "0.5 s then 1 s apart",
 * the pass "at most once a minute", and test/unit/confirmSettlement.test.ts "after a pause of intervalMs".)
 * - payPerCall.ts `c.error || c.res.status < 200 ||` (three mutants: `false ||` for both, `c.error && ...`,
 *   `|| false ||`): a handler that throws is answered by the app's error handler, never with a 2xx, so
 *   `status >= 300` alone gives its payment back; a Response's status is 200-599.
 * - resolvePendingSettlement.ts `|| block.blockNumber === null` (`if (false)`, `&&`, `|| false`): an evidence-grade
 *   block is pinned, so it has a number, and readAtEvidenceGrade answers every read at a block that is not evidence
 *   grade as failed, so the state read returns PENDING anyway; `kind: "call"` -> `""` (twice): createPinnedReader
 *   sends every read that is not `code` or `storage` as an eth_call; `state?.ok`, `timestamp?.ok` and `outcome?.ok`
 *   -> `.ok`: readAtEvidenceGrade and rpcBatch answer one outcome per request, so the element exists.
 * - createInProcessFacilitator.ts `transports.length === 1 ?` -> `false`: a fallback over one transport answers as that
 *   transport; chainReachable's `() => false` -> `() => undefined`: both falsy; the chain definition's `rpcUrls: {}`,
 *   `default: {}` and `http: []`: the transports carry their own URLs; `authorizationKey`'s three `toLowerCase` ->
 *   `toUpperCase`: one function makes both keys, so they still match; `functionName === "transferWithAuthorization"`
 *   -> `true`, and `to &&` -> `to ||`: x402's exact scheme sends the token no other call (its ERC-6492 deployment
 *   goes to the wallet's factory, whose calldata FiatTokenAbi does not decode); `to &&` -> `true &&`: a contract
 *   creation's code does not decode as a FiatToken call either (and a missing `to` would throw into the same
 *   null). Not equivalent but untested: the token in `authorizationKey` (the test chain has one EIP-3009 token, so
 *   two tokens' authorizations with the same authorizer and nonce cannot be settled side by side).
 * (The "X-Credits-Remaining: 0" survivor of the first runs was a real finding: a refusal after a lost
 * race showed the stale balance. chargeCredits now sets the fresh balance, and the credits unit test
 * asserts it.)
 */
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: true },
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 10_000,
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  reporters: ["clear-text", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  mutate: [
    "api/access/readCredential.ts",
    "api/http/requestHeader.ts",
    "api/http/validateParameters.ts",
    "api/http/answer.ts",
    "api/access/fingerprintCredential.ts",
    "api/access/rejectQueryCredentials.ts",
    "api/access/clientAddressKey.ts",
    "api/access/createAuthFailureGuard.ts",
    "api/payments/confirmations.ts",
    "api/keys/planCatalogue.ts",
    "api/keys/intentMessage.ts",
    "api/access/chargeCredits.ts",
    "api/access/createCreditService.ts",
    "api/market/priceTokens.ts",
    "api/market/bandDepth.ts",
    "api/market/stableCurveDepth.ts",
    "api/market/tickMath.ts",
    "api/market/ratio.ts",
    "api/market/quotePool.ts",
    "api/x402/parsePaymentSignature.ts",
    "api/x402/X402Facilitator.ts",
    "api/x402/reuseAnswer.ts",
    "api/x402/answerWithin.ts",
    "api/access/createCreditLeases.ts",
    "api/keys/createKeyCache.ts",
    "api/chain/pinObservationBlock.ts",
    "api/access/createRateLimits.ts",
    "api/payments/decidePayment.ts",
    "api/keys/createPurchaseService.ts",
    "src/isWhaleTransfer.ts",
    "api/keys/challenges.ts",
    "api/keys/createFreeKeyService.ts",
    "api/keys/createRecoveryService.ts",
    "api/keys/createKeyService.ts",
    "api/x402/createX402Service.ts",
    "api/x402/createX402Offer.ts",
    "api/x402/createX402Admission.ts",
    "api/x402/createX402Recovery.ts",
    "api/x402/createX402Settlement.ts",
    "api/x402/createPaymentResponse.ts",
    "api/x402/payPerCall.ts",
    "api/x402/confirmSettlement.ts",
    "api/x402/resolvePendingSettlement.ts",
    "api/x402/createRemoteFacilitator.ts",
    "api/x402/createInProcessFacilitator.ts",
    "api/store/x402PaymentQueries.ts",
  ],
};
