import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { type Abi, type AbiFunction, type AbiParameter, type Hex, toFunctionSelector } from "viem";
import { compileFixtures } from "../../devnet/compile";

/** One contract with its ground truth: the ABI it was compiled from and its runtime code. */
export type CorpusContract = {
  /** `package@version:path` for npm artifacts, `devnet:Name` for fixtures. */
  id: string;
  name: string;
  abi: Abi;
  deployedBytecode: Hex;
};

/**
 * Packages whose compiled artifacts form the real-world corpus (no one here wrote them). Versions are
 * pinned so the measured figures stay comparable from run to run.
 */
export const corpusPackages = [
  "@openzeppelin/contracts@5.7.0",
  "@uniswap/v3-core@1.0.1",
  "@safe-global/safe-contracts@1.4.1",
  "@uniswap/v3-periphery@1.4.4",
] as const;

const cacheDir = resolve(import.meta.dirname, "..", "..", ".devnet", "corpus");

/**
 * Every artifact with runtime code in the corpus packages, fetched once with `npm pack` into
 * `.devnet/corpus/` (git-ignored) and read from there afterwards. Link-reference placeholders
 * (`__$…$__`) become zero addresses; artifacts without code (interfaces, abstract contracts) are skipped.
 */
export function loadNpmCorpus(): CorpusContract[] {
  const contracts: CorpusContract[] = [];
  for (const spec of corpusPackages) {
    const root = ensurePackage(spec);
    for (const file of jsonFiles(root)) {
      const artifact = readArtifact(file);
      if (artifact === null) continue;
      contracts.push({ id: `${spec}:${relative(root, file)}`, ...artifact });
    }
  }
  return contracts;
}

/** The devnet fixtures (`devnet/contracts/*.sol`) that have runtime code. */
export function loadFixtureCorpus(): CorpusContract[] {
  return Object.entries(compileFixtures())
    .filter(([, a]) => a.deployedBytecode.length > 2)
    .map(([name, a]) => ({ id: `devnet:${name}`, name, abi: a.abi, deployedBytecode: a.deployedBytecode }));
}

/**
 * OpenZeppelin 5.7's own sources recompiled with the project's solc through the via-IR pipeline (a
 * codegen the shipped artifacts do not use): every contract with runtime code. Compiling takes ~20 s,
 * so the result is cached in `.devnet/corpus/`.
 */
export function loadViaIrCorpus(): CorpusContract[] {
  const require = createRequire(import.meta.url);
  const solc = require("solc") as { version(): string; compile(input: string): string };
  const cached = join(cacheDir, `openzeppelin-5.7.0-via-ir-${solc.version().replace(/[^\w.]+/g, "_")}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as CorpusContract[];
  const root = ensurePackage("@openzeppelin/contracts@5.7.0");
  const sources: Record<string, { content: string }> = {};
  for (const file of solidityFiles(root)) {
    sources[`@openzeppelin/contracts/${relative(root, file)}`] = { content: readFileSync(file, "utf8") };
  }
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources,
        settings: {
          viaIR: true,
          optimizer: { enabled: true, runs: 200 },
          evmVersion: "prague",
          outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const contracts: CorpusContract[] = [];
  for (const [file, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(byName)) {
      const hex = c.evm.deployedBytecode.object.replace(/__\$[0-9a-fA-F]{34}\$__/g, "0".repeat(40));
      if (hex.length > 0) contracts.push({ id: `via-ir:${file}:${name}`, name, abi: c.abi, deployedBytecode: `0x${hex}` });
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(contracts));
  return contracts;
}

/**
 * Sorted function selectors that an ABI declares. Libraries (`library: true`) hash their struct and enum
 * parameters by qualified name (`f(L.S)`), not as tuples, as solc does for library functions.
 */
export function abiSelectors(abi: Abi, options: { library?: boolean } = {}): string[] {
  const selectors = abi
    .filter((item): item is AbiFunction => item.type === "function")
    .map((item) =>
      options.library ? toFunctionSelector(`${item.name}(${item.inputs.map(libraryParameterType).join(",")})`) : toFunctionSelector(item),
    );
  return [...new Set(selectors)].sort();
}

/** Whether runtime code is a library's: it starts with the call guard `PUSH20 <self> ADDRESS EQ`. */
export function isLibraryCode(code: Hex): boolean {
  return /^0x73[0-9a-f]{40}3014/i.test(code);
}

function libraryParameterType(parameter: AbiParameter): string {
  const internal = (parameter as { internalType?: string }).internalType;
  const qualified = internal?.match(/^(?:struct|enum) (\S+)$/)?.[1];
  if (qualified !== undefined) return qualified;
  return canonicalType(parameter);
}

function canonicalType(parameter: AbiParameter): string {
  if (!parameter.type.startsWith("tuple")) return parameter.type;
  const components = (parameter as { components: readonly AbiParameter[] }).components;
  return `(${components.map(canonicalType).join(",")})${parameter.type.slice(5)}`;
}

/** Recall and precision of found selectors against the ABIs, pooled over all contracts. */
export type SelectorScore = {
  contracts: number;
  expected: number;
  found: number;
  truePositives: number;
  recall: number;
  precision: number;
  /** Per-contract differences, for diagnosis. */
  misses: { id: string; missing: string[]; extra: string[] }[];
};

/** Scores `selectorsOf` on every contract of `corpus` against its ABI. */
export function scoreSelectors(corpus: CorpusContract[], selectorsOf: (c: CorpusContract) => string[]): SelectorScore {
  let expected = 0;
  let found = 0;
  let truePositives = 0;
  const misses: SelectorScore["misses"] = [];
  for (const contract of corpus) {
    const truth = new Set(abiSelectors(contract.abi, { library: isLibraryCode(contract.deployedBytecode) }));
    const got = new Set(selectorsOf(contract));
    const missing = [...truth].filter((s) => !got.has(s));
    const extra = [...got].filter((s) => !truth.has(s));
    expected += truth.size;
    found += got.size;
    truePositives += got.size - extra.length;
    if (missing.length > 0 || extra.length > 0) misses.push({ id: contract.id, missing, extra });
  }
  return {
    contracts: corpus.length,
    expected,
    found,
    truePositives,
    recall: expected === 0 ? 1 : truePositives / expected,
    precision: found === 0 ? 1 : truePositives / found,
    misses,
  };
}

/** The unpacked package folder of `spec`, downloading it with `npm pack` when it is not cached. */
function ensurePackage(spec: string): string {
  const folder = join(cacheDir, spec.replace(/^@/, "").replace(/[/@]/g, "-"));
  const root = join(folder, "package");
  if (existsSync(root)) return root;
  mkdirSync(cacheDir, { recursive: true });
  // Download and unpack beside the final folder, then rename: concurrent callers never see half a package.
  const staging = mkdtempSync(join(cacheDir, ".staging-"));
  try {
    const tarball = execFileSync("npm", ["pack", spec, "--silent", "--pack-destination", staging], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
      .trim()
      .split("\n")
      .pop() as string;
    execFileSync("tar", ["-xzf", join(staging, tarball), "-C", staging]);
    try {
      renameSync(staging, folder);
    } catch (error) {
      if (!existsSync(root)) throw error; // lost a race to another process: its copy is as good
    }
  } finally {
    if (existsSync(staging)) rmSync(staging, { recursive: true, force: true });
  }
  return root;
}

function solidityFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (entry === "node_modules" || entry === "build") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...solidityFiles(path));
    else if (entry.endsWith(".sol")) files.push(path);
  }
  return files;
}

function jsonFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (entry === "node_modules" || entry === "build-info" || entry === "cache") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...jsonFiles(path));
    else if (entry.endsWith(".json") && !entry.endsWith(".dbg.json")) files.push(path);
  }
  return files;
}

function readArtifact(file: string): Omit<CorpusContract, "id"> | null {
  let json: { abi?: unknown; deployedBytecode?: unknown; contractName?: unknown };
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(json.abi) || json.deployedBytecode === undefined) return null;
  const raw =
    typeof json.deployedBytecode === "string" ? json.deployedBytecode : (json.deployedBytecode as { object?: string } | null)?.object;
  if (typeof raw !== "string") return null;
  const hex = (raw.startsWith("0x") ? raw.slice(2) : raw).replace(/__\$[0-9a-fA-F]{34}\$__/g, "0".repeat(40));
  if (hex.length === 0) return null;
  const name = typeof json.contractName === "string" ? json.contractName : (file.split("/").pop() as string).slice(0, -5);
  return { name, abi: json.abi as Abi, deployedBytecode: `0x${hex}` };
}
