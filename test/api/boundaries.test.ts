import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

/** Every file under `dir` (a path from the project root), as paths from the project root. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const typescriptUnder = (dir: string) => filesUnder(dir).filter((f) => f.endsWith(".ts"));

/** The module specifiers `file` imports or re-exports, as written. */
function specifiersOf(file: string): string[] {
  const source = readFileSync(join(root, file), "utf8");
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)].flatMap((m) => (m[1] ? [m[1]] : []));
}

/** The project files `file` imports through relative specifiers, as paths from the project root. */
function localImportsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((s) => s.startsWith("."))
    .flatMap((s) => {
      // The JS client's ESM specifiers name the compiled file (./x.js for ./x.ts).
      const target = relative(root, resolve(root, dirname(file), s.replace(/\.js$/, "")));
      const resolved = [`${target}.ts`, join(target, "index.ts"), target].find(
        (p) => existsSync(join(root, p)) && statSync(join(root, p)).isFile(),
      );
      return resolved ? [resolved] : [];
    });
}

/** Every `importer imports imported` edge reachable from `entries` through project files. */
function importEdges(entries: string[]): { importer: string; imported: string }[] {
  const seen = new Set(entries);
  const queue = [...entries];
  const edges: { importer: string; imported: string }[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of localImportsOf(file)) {
      edges.push({ importer: file, imported });
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return edges;
}

/** An import cycle among `files` (each file's imports through relative specifiers), as its files in order, or null. */
function findImportCycle(files: string[]): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === "done") return null;
    if (state.get(file) === "open") return [...path.slice(path.indexOf(file)), file];
    state.set(file, "open");
    path.push(file);
    for (const imported of localImportsOf(file)) {
      const cycle = visit(imported);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, "done");
    return null;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

/** Ponder's adapter: it hands Ponder's read-only db to the API, so it alone of src/ builds the API. */
const ponderApiAdapter = join("src", "api", "index.ts");

describe("module boundaries", () => {
  test("the indexer (src/, ponder.config.ts, ponder.schema.ts) reaches nothing of api/ but the environment's parse (api/config.ts, api/env/), directly or through other files", () => {
    const indexer = [...typescriptUnder("src").filter((f) => f !== ponderApiAdapter), "ponder.config.ts", "ponder.schema.ts"];
    const crossings = importEdges(indexer)
      .filter(
        ({ imported }) =>
          imported.startsWith("api/") && imported !== join("api", "config.ts") && !imported.startsWith(join("api", "env", "")),
      )
      .map(({ importer, imported }) => `${importer} imports ${imported}`);
    expect(crossings).toEqual([]);
  });

  test("api/index/ is the only part of api/ that imports Ponder's schema", () => {
    const readers = typescriptUnder("api")
      .filter((f) => !f.startsWith("api/index/"))
      .filter((f) => specifiersOf(f).some((s) => s === "ponder:schema" || /(^|\/)ponder\.schema(\.ts)?$/.test(s)));
    expect(readers).toEqual([]);
  });

  test("Base's chain id is written only in base/: no 8453 literal in api/, src/, devnet/, scripts/ or Ponder's config and schema", () => {
    const files = [...["api", "src", "devnet", "scripts"].flatMap(filesUnder), "ponder.config.ts", "ponder.schema.ts"];
    const literal = /(?<![0-9A-Za-z_])8453(?![0-9A-Za-z_])/;
    const holders = files.filter((f) => literal.test(readFileSync(join(root, f), "utf8")));
    expect(holders).toEqual([]);
  });

  test("the JS client (clients/js/src) is a package of its own: it imports its own files, Node's, and its optional peers (x402, the MCP SDK, viem) only", () => {
    const clientDir = join("clients", "js", "src");
    // clients/js/package.json's peerDependencies, all optional.
    const clientPeers = Object.keys(
      (JSON.parse(readFileSync(join(root, "clients", "js", "package.json"), "utf8")) as { peerDependencies: Record<string, string> })
        .peerDependencies,
    );
    const strays = typescriptUnder(clientDir).flatMap((file) =>
      specifiersOf(file)
        .filter((s) =>
          s.startsWith(".")
            ? !resolve(root, dirname(file), s).startsWith(join(root, clientDir))
            : !(s.startsWith("node:") || clientPeers.some((peer) => s === peer || s.startsWith(`${peer}/`))),
        )
        .map((s) => `${file} imports ${s}`),
    );
    expect(typescriptUnder(clientDir).length).toBeGreaterThan(0);
    expect(strays).toEqual([]);
  });

  test("no import cycle in api/ or the JS client (type imports included): each file's imports go one way", () => {
    expect(findImportCycle([...typescriptUnder("api"), ...typescriptUnder(join("clients", "js", "src"))])).toBeNull();
  });
});
