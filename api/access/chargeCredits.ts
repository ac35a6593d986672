import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import { answerHeader, beforeAnswer } from "../http/answer";
import { errorAnswer } from "../http/errorHandling";
import type { CreditBalance } from "../keys/records";
import { awaitStore } from "../store/isStoreUnavailable";
import type { AccessControlParameters, AccessEnv } from "./AccessControlParameters";
import { spendableNow } from "./createCreditService";

export type ChargeCreditsParameters = Pick<AccessControlParameters, "credits" | "storeReady" | "clock"> & {
  /** Credits one successful answer costs. */
  cost: number;
};

/**
 * Meters an API key's credits, the same way on every metered route: refuses before any work when the
 * key cannot pay for one more answer, and charges `cost` atomically only once a 2xx answer is ready
 * (a refused charge, lost to a concurrent call, replaces the answer with its 402/429). The charge runs
 * before the answer is built when the handler builds it with `answer`, else on `c.res` after the
 * handler: either way X-Credits-Remaining is the balance after it. The marketplace gateway meters its
 * own users: nothing is charged here.
 */
export function chargeCredits(opts: ChargeCreditsParameters): MiddlewareHandler<AccessEnv> {
  const { credits, cost } = opts;
  return async function chargeCredits(c, next) {
    const principal = c.get("principal");
    if (principal.kind !== "apiKey") return next();
    await awaitStore(opts.storeReady);
    const balance = await credits.balanceFor(principal.key, cost);
    answerHeader(c, "x-credits-remaining", String(spendableNow(balance)));
    if (spendableNow(balance) < cost) throw creditRefusal(balance, cost, opts.clock());
    const settle = beforeAnswer(c, async (status) => {
      if (status < 200 || status >= 300) return undefined;
      const outcome = await credits.charge(principal.key, cost);
      answerHeader(c, "x-credits-remaining", String(spendableNow(outcome.balance)));
      if (outcome.ok) return undefined;
      // Lost to a concurrent call: the refusal, with the balance as it now stands.
      const refusal = creditRefusal(outcome.balance, cost, opts.clock());
      return errorAnswer(c, refusal);
    });
    await next();
    const refused = await settle(c.res.status);
    if (refused) c.res = refused;
  };
}

/** 402 when the cycle's allowance is spent; 429 until the next UTC day when only a free key's daily cap is. */
function creditRefusal(balance: CreditBalance, cost: number, now: Date): ApiError {
  if (balance.remaining >= cost && balance.daily && balance.daily.remaining < cost) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(balance.daily.resetsAt) - now.getTime()) / 1000));
    return new ApiError(
      "DAILY_LIMIT_REACHED",
      `this free key's ${balance.daily.limit} decisions for today are used; they renew at ${balance.daily.resetsAt}`,
      { resetsAt: balance.daily.resetsAt },
      { "Retry-After": String(retryAfter) },
    );
  }
  return new ApiError(
    "CREDITS_EXHAUSTED",
    `this key's ${balance.allowance} credits for the cycle ending ${balance.cycleEndsAt} are used; upgrade, or wait for the next cycle`,
    { cycleEndsAt: balance.cycleEndsAt },
  );
}
