import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Whether a credential may be checked now (`reserved`: one failure was taken from the budget in
 * advance, given back if the credential passes; `fingerprint`: the credential as the guard remembers
 * it); when not, how long its client must wait.
 */
export type Admission =
  | {
      ok: true;
      reserved: boolean;
      fingerprint: string;
      /** Where a reservation is remembered (the client's bucket and the fingerprint), for the calls that share it. */
      reservation?: string;
    }
  | { ok: false; retryAfterSeconds: number };

/** An admitted credential. */
export type Admitted = Extract<Admission, { ok: true }>;

/** The client's bucket, computed only when its budget is touched (a trusted credential that passes never needs it). */
export type ClientRef = () => string;

export type AuthFailureGuard = {
  /**
   * Before a credential is checked (a key looked up, a secret compared), by its `fingerprint`
   * (`fingerprintCredential`: the guard never sees the credential itself): a credential that passed
   * recently is admitted; any other takes one failure from `client`'s budget first (so concurrent
   * guesses cannot all be checked), and is refused once the budget of this minute is spent. Calls from
   * the same client with a credential already being checked share that check's reservation: a client's
   * first burst with a new key is not refused for its own concurrency.
   */
  admit(client: ClientRef, fingerprint: string): Promise<Admission>;
  /** The credential was wrong: one failure from `client`'s budget, unless it was reserved at admission. */
  failed(client: ClientRef, admission: Admitted): Promise<void>;
  /** The credential was right: its reserved failure is given back, and it is admitted for `trustMs` even from a client whose budget is spent. */
  passed(client: ClientRef, admission: Admitted): Promise<void>;
};

export type CreateAuthFailureGuardParameters = {
  /** Failed authentications a client address may make per minute. */
  perMinute: number;
  /** How long a credential that passed stays admitted from a limited client. */
  trustMs?: number;
  /** Most credentials remembered as passed (and as being checked); the one that passed longest ago is forgotten first. */
  maxRemembered?: number;
  now?: () => number;
};

/**
 * How long a reservation is shared with later calls of the same credential when its own check never
 * reported (an error between admission and the check's end): after this, a call reserves again.
 */
const sharedReservationMs = 10_000;

/**
 * The failed-authentication budget per client address (its hashed bucket), in process memory. A
 * client that spent it gets 429 for every credential this process has not seen pass in the last
 * `trustMs` (10 minutes), before the credential is even checked: a neighbour behind the same address
 * who guesses keys does not lock out a key that is in use. Successes spend nothing (their reserved
 * failure is given back). Credentials are remembered only by their fingerprints.
 */
export function createAuthFailureGuard({
  perMinute,
  trustMs = 10 * 60_000,
  maxRemembered = 10_000,
  now = Date.now,
}: CreateAuthFailureGuardParameters): AuthFailureGuard {
  const failures = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: "svc_auth_failures" });
  /** Fingerprint → when it last passed, oldest first. */
  const passedAt = new Map<string, number>();
  /**
   * Client bucket and fingerprint → the admission that reserved a failure for its check in flight,
   * and when, oldest first: only calls from the same client with the same credential share it.
   */
  const checking = new Map<string, { owner: Admitted; at: number }>();
  const refusal = (msBeforeNext: number): Admission => ({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) });
  /** The check of `admission` has reported: its reservation is no longer shared (unless a later one replaced it). */
  const settle = (admission: Admitted) => {
    const key = admission.reservation;
    if (key !== undefined && checking.get(key)?.owner === admission) checking.delete(key);
  };

  return {
    async admit(client, id) {
      const lastPassed = passedAt.get(id);
      if (lastPassed !== undefined && now() - lastPassed < trustMs) return { ok: true, reserved: false, fingerprint: id };
      const bucket = client();
      const reservation = `${bucket}:${id}`;
      const inFlight = checking.get(reservation);
      if (inFlight !== undefined && now() - inFlight.at < sharedReservationMs) {
        // The same client's same credential is being checked under a reservation (counted in its budget):
        // this call shares it, and pays its own failure if the credential is wrong, unless the budget is
        // overspent. A window that has ended (its record not yet swept) counts as nothing used.
        const used = await failures.get(bucket);
        const overspent = used !== null && used.msBeforeNext > 0 && used.consumedPoints > perMinute;
        return overspent ? refusal(used.msBeforeNext) : { ok: true, reserved: false, fingerprint: id };
      }
      const admitted: Admitted = { ok: true, reserved: true, fingerprint: id, reservation };
      // Remembered before the reservation is awaited, so the calls that arrive meanwhile share it.
      checking.delete(reservation);
      checking.set(reservation, { owner: admitted, at: now() });
      if (checking.size > maxRemembered) checking.delete(checking.keys().next().value as string);
      try {
        await failures.consume(bucket, 1);
      } catch (rejection) {
        settle(admitted);
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return refusal(rejection.msBeforeNext);
      }
      return admitted;
    },
    async failed(client, admission) {
      if (admission.reserved) settle(admission);
      else await failures.penalty(client(), 1);
    },
    async passed(client, admission) {
      const id = admission.fingerprint;
      if (admission.reserved) {
        settle(admission);
        await failures.reward(client(), 1);
      }
      passedAt.delete(id);
      passedAt.set(id, now());
      if (passedAt.size > maxRemembered) passedAt.delete(passedAt.keys().next().value as string);
    },
  };
}
