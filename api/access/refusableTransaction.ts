import { ApiError } from "../errors";
import type { AppDb } from "../store/createAppStore";
import { failure, type Result, success } from "./Result";

class Refused extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * Runs `work` in one transaction. When it returns an ApiError the transaction is rolled back and the
 * error is the result; anything thrown rolls back and propagates.
 */
export async function refusableTransaction<T>(db: AppDb, work: (tx: AppDb) => Promise<T | ApiError>): Promise<Result<T>> {
  try {
    return success(
      await db.transaction(async (tx) => {
        const outcome = await work(tx as unknown as AppDb);
        if (outcome instanceof ApiError) throw new Refused(outcome);
        return outcome;
      }),
    );
  } catch (err) {
    if (err instanceof Refused) return failure(err.error);
    throw err;
  }
}
