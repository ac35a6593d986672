import type { Context } from "hono";
import { isStoreUnavailable } from "../access/isStoreUnavailable";
import { ApiError } from "../errors";
import { handleError } from "../http/errorHandling";

/** The access routes' error handler: an unreachable app store is 503 PERSISTENCE_UNAVAILABLE, the rest as everywhere. */
export function accessRouteError(err: Error, c: Context) {
  return handleError(
    isStoreUnavailable(err) ? new ApiError(503, "PERSISTENCE_UNAVAILABLE", "the key store is unavailable; retry later") : err,
    c,
  );
}
