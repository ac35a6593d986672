import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { tierTerms } from "../../api/keys/planCatalogue";
import { routeList, routes } from "../../api/routes/routeList";
import { toolDefinitions } from "../../clients/js/src/tools/toolDefinitions";

// The README quotes a few figures whose source is a file: each is checked against it, as the
// configuration table is (configDocs.test.ts). Line breaks in the prose are not meaning: white space folded.
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** How the README's x402 paragraph names each payable route. */
const spokenNames: Record<string, string> = {
  audit: routes.audit.name,
  score: routes.score.name,
  "whale signals": routes.whaleSignals.name,
  "DEX metrics": routes.dexMetrics.name,
  "gas fees": routes.gasFees.name,
  "token price": routes.tokenPrice.name,
  "trade simulation": routes.tokenSimulation.name,
};

test("behavior: the README's x402 prices are the route table's, for every payable route", () => {
  const sentence = readme.match(/instead of a key: (.+?) \(`GET \/v1\/plans`/)?.[1];
  expect(sentence, "the README's x402 price sentence").toBeDefined();
  const quoted = new Map<string, number>();
  for (const part of (sentence as string).split(", ")) {
    const [, names = "", price = ""] = part.match(/^(.+?) (\d+(?:\.\d+)?)\b/) ?? [];
    for (const name of names.split(" and ")) {
      const route = spokenNames[name];
      expect(route, `"${name}" names no payable route`).toBeDefined();
      quoted.set(route as string, Number(price));
    }
  }
  const payable = routeList.filter((r) => r.access === "apiKeyOrX402");
  expect([...quoted.keys()].sort()).toEqual(payable.map((r) => r.name).sort());
  for (const route of payable) expect(quoted.get(route.name), route.name).toBe(route.x402PriceUsd);
});

test("behavior: the README's client version is both packages' version", () => {
  const js = (JSON.parse(read("clients/js/package.json")) as { version: string }).version;
  const python = read("clients/python/pyproject.toml").match(/^version = "(.+)"$/m)?.[1];
  expect(python).toBe(js);
  expect(readme.match(/standard library only\), both (\S+):/)?.[1]).toBe(js);
});

// The tools as plain data: the JS client's copy of the service's tools/list (test/clients/agents.test.ts keeps them equal).
test("behavior: the README names exactly the MCP tools the service lists", () => {
  const named = readme.match(/Tools: (.+?), each at its REST route's cost/)?.[1] ?? "";
  const tools = [...named.matchAll(/`(svc_\w+)`/g)].map((m) => m[1]);
  expect(tools.sort()).toEqual(toolDefinitions.map((t) => t.name).sort());
});

test("behavior: the tour's free-key allowance is the FREE tier's daily limit", () => {
  expect(Number(readme.match(/a free key has (\d+) a day/)?.[1])).toBe(tierTerms.FREE.dailyLimit);
});
