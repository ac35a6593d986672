import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";

/**
 * `schema` as the MCP SDK reads a tool's schema (Standard Schema), validating with zod as before but
 * converting to JSON Schema once per direction and target for the process: the SDK converts on every
 * `tools/list` and on every server (one per request), which made each listing cost a conversion of every
 * tool's schemas. What it gets is frozen: one object serves every listing, and nothing may change it.
 */
export function withJsonSchemaOnce<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const standard = schema["~standard"];
  const converted = new Map<string, Record<string, unknown>>();
  const once =
    (io: "input" | "output") =>
    (options: { target: string }): Record<string, unknown> => {
      const key = `${io} ${options.target}`;
      let json = converted.get(key);
      if (!json) {
        json = deepFreeze(standard.jsonSchema[io](options));
        converted.set(key, json);
      }
      return json;
    };
  return { "~standard": { ...standard, jsonSchema: { input: once("input"), output: once("output") } } };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
