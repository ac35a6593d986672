import { type Failure, type Result, success } from "../errors";
import type { AppDb } from "../store/createAppStore";

class Refused extends Error {
  constructor(readonly refusal: Failure) {
    super(refusal.message);
  }
}

const isFailure = (value: unknown): value is Failure =>
  typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false && "code" in value;

/**
 * Runs `work` in one transaction. When it returns a Failure the transaction is rolled back and the
 * failure is the result; anything thrown rolls back and propagates.
 */
export async function refusableTransaction<T>(db: AppDb, work: (tx: AppDb) => Promise<T | Failure>): Promise<Result<T>> {
  try {
    return success(
      await db.transaction(async (tx) => {
        const outcome = await work(tx as unknown as AppDb);
        if (isFailure(outcome)) throw new Refused(outcome);
        return outcome as T;
      }),
    );
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}
