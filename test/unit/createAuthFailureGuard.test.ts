import { describe, expect, test, vi } from "vitest";
import { type Admission, createAuthFailureGuard } from "../../api/access/createAuthFailureGuard";

const client = () => "198.51.100.7";
const neighbour = () => "203.0.113.9";

/** The admission, which the test expects to be granted. */
function granted(admission: Admission) {
  if (!admission.ok) throw new Error(`refused for ${admission.retryAfterSeconds} s`);
  return admission;
}
const goodKey = "svc_live_0123456789abcdef0123456789abcdef";
const guess = (n: number) => `svc_live_guess${n}`;

/** A guard with a clock the test moves. */
function guard(perMinute: number, options: { trustMs?: number; maxRemembered?: number } = {}) {
  let at = 1_700_000_000_000;
  return {
    guard: createAuthFailureGuard({ perMinute, ...options, now: () => at }),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

describe("createAuthFailureGuard", () => {
  test("each unknown credential reserves one failure; once the minute's budget is spent, the client waits the minute out", async () => {
    const { guard: g } = guard(2);
    expect(await g.admit(client, guess(1))).toMatchObject({ ok: true, reserved: true });
    expect(await g.admit(client, guess(2))).toMatchObject({ ok: true, reserved: true });
    expect(await g.admit(client, guess(3))).toEqual({ ok: false, retryAfterSeconds: 60 });
    // another address has its own budget
    expect(await g.admit(neighbour, guess(4))).toMatchObject({ ok: true, reserved: true });
  });

  test("a reserved failure that turns out wrong costs nothing more", async () => {
    const { guard: g } = guard(2);
    await g.failed(client, granted(await g.admit(client, guess(1))));
    expect(await g.admit(client, guess(2))).toMatchObject({ ok: true, reserved: true });
  });

  test("a credential that passes gives its reserved failure back", async () => {
    const { guard: g } = guard(1);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    expect(await g.admit(client, guess(1))).toMatchObject({ ok: true, reserved: true });
  });

  test("a credential that passed is admitted without a reservation from a client whose budget is spent, until trustMs has passed", async () => {
    const { guard: g, advance } = guard(1, { trustMs: 1_000 });
    await g.passed(client, granted(await g.admit(client, goodKey)));
    await g.failed(client, granted(await g.admit(client, guess(1))));
    expect((await g.admit(client, guess(2))).ok).toBe(false);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    advance(999);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    advance(1);
    expect((await g.admit(client, goodKey)).ok).toBe(false);
  });

  test("a trusted credential's failure (no reservation) is charged to the client", async () => {
    const { guard: g } = guard(2);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    const trusted = granted(await g.admit(client, goodKey));
    expect(trusted).toMatchObject({ ok: true, reserved: false });
    await g.failed(client, trusted);
    await g.failed(client, granted(await g.admit(client, guess(1))));
    expect((await g.admit(client, guess(2))).ok).toBe(false);
  });

  test("passing without a reservation gives nothing back", async () => {
    const { guard: g } = guard(1);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    await g.passed(client, granted(await g.admit(client, goodKey))); // trusted: reserved false
    await g.admit(client, guess(1));
    expect((await g.admit(client, guess(2))).ok).toBe(false);
  });

  test("only maxRemembered credentials stay trusted, the one that passed longest ago is forgotten first", async () => {
    const { guard: g } = guard(1, { maxRemembered: 2 });
    const [a, b, c] = ["svc_live_a", "svc_live_b", "svc_live_c"];
    for (const k of [a, b, a, c]) await g.passed(client, granted(await g.admit(client, k)));
    await g.admit(client, guess(1)); // spends the budget
    expect(await g.admit(client, a)).toMatchObject({ ok: true, reserved: false });
    expect(await g.admit(client, c)).toMatchObject({ ok: true, reserved: false });
    expect((await g.admit(client, b)).ok).toBe(false);
  });

  test("the trust is per credential, not per client: another key from the same address is not admitted", async () => {
    const { guard: g } = guard(1);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    await g.admit(client, guess(1));
    expect((await g.admit(client, `${goodKey}0`)).ok).toBe(false);
  });

  test("by default a credential that passed stays admitted for 10 minutes", async () => {
    const { guard: g, advance } = guard(1);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    await g.failed(client, granted(await g.admit(client, guess(1))));
    advance(9 * 60_000);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    advance(60_000);
    expect((await g.admit(client, goodKey)).ok).toBe(false);
  });

  test("a trusted credential that passes never asks for the client's bucket (it costs an HMAC of the address)", async () => {
    const { guard: g } = guard(5);
    await g.passed(client, granted(await g.admit(client, goodKey)));
    let asked = 0;
    const counted = () => {
      asked += 1;
      return client();
    };
    await g.passed(counted, granted(await g.admit(counted, goodKey)));
    expect(asked).toBe(0);
    await g.failed(counted, granted(await g.admit(counted, guess(1))));
    expect(asked).toBe(1);
  });

  test("concurrent calls with a credential being checked share its reservation: a first burst of a good key is admitted whole", async () => {
    const { guard: g } = guard(2);
    const burst = await Promise.all(Array.from({ length: 10 }, () => g.admit(client, goodKey)));
    expect(burst.every((a) => a.ok)).toBe(true);
    expect(burst.filter((a) => a.ok && a.reserved)).toHaveLength(1);
    for (const a of burst) await g.passed(client, granted(a));
    // The one reservation was given back: the whole budget is left for other credentials.
    expect(await g.admit(client, guess(1))).toMatchObject({ ok: true, reserved: true });
    expect(await g.admit(client, guess(2))).toMatchObject({ ok: true, reserved: true });
    expect((await g.admit(client, guess(3))).ok).toBe(false);
  });

  test("each call that shared the reservation of a wrong credential pays its own failure", async () => {
    const { guard: g } = guard(3);
    const burst = [granted(await g.admit(client, guess(1))), granted(await g.admit(client, guess(1)))];
    expect(burst.map((a) => a.reserved)).toEqual([true, false]);
    for (const a of burst) await g.failed(client, a);
    expect(await g.admit(client, guess(2))).toMatchObject({ ok: true, reserved: true });
    expect((await g.admit(client, guess(3))).ok).toBe(false);
  });

  test("distinct guesses never share: each reserves, and a client whose budget is overspent is refused even for the credential being checked", async () => {
    const { guard: g } = guard(1);
    granted(await g.admit(client, guess(1)));
    expect((await g.admit(client, guess(2))).ok).toBe(false);
    expect(await g.admit(client, guess(1))).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  test("a reservation whose check never reported is shared for 10 s only; its late report leaves the next one shared", async () => {
    const { guard: g, advance } = guard(5);
    const unreported = granted(await g.admit(client, goodKey));
    advance(9_999);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    advance(1);
    const next = granted(await g.admit(client, goodKey));
    expect(next).toMatchObject({ ok: true, reserved: true });
    await g.failed(client, unreported);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    await g.passed(client, next);
  });

  test("a reservation is shared only by its own client: another address presenting the credential reserves from its own budget", async () => {
    const { guard: g } = guard(2);
    granted(await g.admit(client, goodKey));
    for (const n of [1, 2]) await g.failed(neighbour, granted(await g.admit(neighbour, guess(n))));
    // The neighbour's budget is spent: the credential the client is checking does not let it through.
    expect((await g.admit(neighbour, goodKey)).ok).toBe(false);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    const { guard: fresh } = guard(2);
    granted(await fresh.admit(client, goodKey));
    expect(await fresh.admit(neighbour, goodKey)).toMatchObject({ ok: true, reserved: true });
  });

  test("once its check reports, a credential's next call reserves again: after a wrong answer, a refusal, or a pass that is no longer trusted", async () => {
    const { guard: g, advance } = guard(5, { trustMs: 1 });
    await g.failed(client, granted(await g.admit(client, guess(1))));
    expect(await g.admit(client, guess(1))).toMatchObject({ ok: true, reserved: true });
    await g.passed(client, granted(await g.admit(client, goodKey)));
    advance(1);
    expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: true });
  });

  test("a budget spent exactly by reservations in flight still lets their own credentials' calls share them", async () => {
    const { guard: g } = guard(2);
    granted(await g.admit(client, guess(1)));
    granted(await g.admit(client, guess(2)));
    expect(await g.admit(client, guess(1))).toMatchObject({ ok: true, reserved: false });
    expect((await g.admit(client, guess(3))).ok).toBe(false);
  });

  test("a budget window that has ended, though its record is not yet swept, does not refuse a call sharing a reservation", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { guard: g } = guard(1);
      const windowStart = Date.now();
      granted(await g.admit(client, goodKey));
      expect((await g.admit(client, guess(1))).ok).toBe(false);
      expect((await g.admit(client, goodKey)).ok).toBe(false);
      // At the window's last millisecond it is overspent still; at its end, nothing is left of it.
      vi.setSystemTime(windowStart + 59_999);
      expect((await g.admit(client, goodKey)).ok).toBe(false);
      vi.setSystemTime(windowStart + 60_000);
      expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
      vi.setSystemTime(windowStart + 61_000);
      expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    } finally {
      vi.useRealTimers();
    }
  });

  test("a budget window whose record is swept counts as nothing used for a call sharing a reservation", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      const { guard: g } = guard(1);
      granted(await g.admit(client, goodKey));
      expect((await g.admit(client, guess(1))).ok).toBe(false);
      // The limiter sweeps the window's record when it ends.
      vi.advanceTimersByTime(60_000);
      expect(await g.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
    } finally {
      vi.useRealTimers();
    }
  });

  test("a refused credential leaves no reservation: once the window has ended, its next call reserves anew", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { guard: g } = guard(1);
      granted(await g.admit(client, guess(1)));
      expect((await g.admit(client, guess(2))).ok).toBe(false);
      vi.setSystemTime(Date.now() + 61_000);
      expect(await g.admit(client, guess(2))).toMatchObject({ ok: true, reserved: true });
    } finally {
      vi.useRealTimers();
    }
  });

  test("a check that reports after its reservation was forgotten (beyond maxRemembered) is still counted", async () => {
    const { guard: g } = guard(2, { maxRemembered: 1 });
    const first = granted(await g.admit(client, guess(1)));
    granted(await g.admit(client, guess(2)));
    await g.failed(client, first);
    // Both reserved failures were taken: the budget is spent.
    expect((await g.admit(client, guess(3))).ok).toBe(false);
    const { guard: fresh } = guard(2, { maxRemembered: 1 });
    const good = granted(await fresh.admit(client, goodKey));
    granted(await fresh.admit(client, guess(4)));
    await fresh.passed(client, good);
    expect(await fresh.admit(client, goodKey)).toMatchObject({ ok: true, reserved: false });
  });

  test("at most maxRemembered reservations are remembered for sharing, the one taken longest ago forgotten first", async () => {
    const { guard: g, advance } = guard(10, { maxRemembered: 2 });
    const [a, b, c] = ["svc_live_a", "svc_live_b", "svc_live_c"];
    granted(await g.admit(client, a));
    advance(10_000);
    granted(await g.admit(client, b));
    // a's reservation expired unreported: its next call reserves anew and becomes the newest.
    expect(await g.admit(client, a)).toMatchObject({ ok: true, reserved: true });
    expect(await g.admit(client, b)).toMatchObject({ ok: true, reserved: false });
    granted(await g.admit(client, c));
    expect(await g.admit(client, a)).toMatchObject({ ok: true, reserved: false });
    expect(await g.admit(client, b)).toMatchObject({ ok: true, reserved: true });
  });
});
