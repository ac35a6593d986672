import { numeric, pgSchema, timestamp } from "drizzle-orm/pg-core";

/**
 * The API's own read-write tables live in schema `app`: in the shared Postgres beside (never inside)
 * Ponder's schema, or in the API's own PGlite directory.
 */
export const appSchema = pgSchema("app");

/** A point in time, with its zone. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Atomic units of a token (numeric(78,0): any uint256), as bigint. */
export const atomicUnits = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });
