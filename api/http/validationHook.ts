import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { AccessEnv } from "../access/AccessControlParameters";
import { ApiError } from "../errors";

/**
 * What a request the route's schemas refuse gets: 400 naming each problem. A path `address` is
 * INVALID_ADDRESS, any other parameter INVALID_PARAMETER, a body INVALID_BODY with its issues.
 */
export const validationHook: Hook<unknown, AccessEnv, string, unknown> = (result) => {
  if (result.success) return;
  const issues = (result.error as z.ZodError).issues;
  const described = issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
  if (result.target === "json") {
    throw new ApiError("INVALID_BODY", described, {
      issues: issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    });
  }
  throw new ApiError(result.target === "param" && issues[0]?.path[0] === "address" ? "INVALID_ADDRESS" : "INVALID_PARAMETER", described);
};
