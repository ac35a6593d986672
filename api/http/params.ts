import { type Address, getAddress } from "viem";
import { z } from "zod";

/** An address as the spec takes it: checksummed or lowercase hex, normalised to its checksum form. */
export const AddressParam = z
  .string()
  // abort: the checksum check below runs only on 40 hex digits (getAddress throws on anything else).
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: "must be a 0x-prefixed 20-byte hex address", abort: true })
  // All uppercase is refused too: it is neither of the spec's two spellings, and carries no checksum.
  .refine(
    (a) => a === a.toLowerCase() || getAddress(a.toLowerCase()) === a,
    "has a wrong EIP-55 checksum (send it checksummed or all lowercase)",
  )
  .transform((a) => getAddress(a.toLowerCase()));

/** An address in an answer (the records' schemas, from which the OpenAPI document is built). */
export const WireAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Address>;

/**
 * A token symbol as a path segment: any text up to 32 characters, so that an untracked symbol reaches the
 * route (404 with the supported list) rather than failing validation; only absurd lengths are a 400.
 */
export const SymbolParam = z.string().min(1).max(32, "a token symbol has at most 32 characters");

/**
 * `schema` documented as one of `values` in the OpenAPI document (clients and generators see the list),
 * while it still takes any text it took: the route matches the value itself and answers an unknown one
 * 404 with the supported list, which an enum failing validation (400) would not.
 */
export const documentedEnum = (schema: z.ZodString, values: readonly string[]) => schema.meta({ enum: [...values] });
