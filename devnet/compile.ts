import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type { Abi, Hex } from "viem";

/** One compiled contract: what deploys it and what it answers to. */
export type Artifact = {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
};

export type Artifacts = Record<string, Artifact>;

const contractsDir = resolve(import.meta.dirname, "contracts");
const cacheDir = resolve(import.meta.dirname, "..", ".devnet", "build");

/**
 * Compiles every `devnet/contracts/*.sol` offline with the npm `solc` package (Prague rules),
 * keyed by contract name. The output is cached by the sources' hash: solc-js takes seconds.
 */
export function compileFixtures(): Artifacts {
  const files = readdirSync(contractsDir)
    .filter((f) => f.endsWith(".sol"))
    .sort();
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(contractsDir, f), "utf8") }]));
  const require = createRequire(import.meta.url);
  // The cache key takes solc's package version, not `solc.version()`: solc is loaded only to compile,
  // and then in a child process (its ~125 MB wasm module would otherwise stay in the launcher for life).
  const { version } = require("solc/package.json") as { version: string };
  const digest = createHash("sha256").update(version).update(JSON.stringify(sources)).digest("hex").slice(0, 16);
  const cached = join(cacheDir, `${digest}.json`);
  if (files.length === 0) return {};
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as Artifacts;

  const input = {
    language: "Solidity",
    sources,
    settings: {
      evmVersion: "prague",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(compileInChildProcess(require.resolve("solc"), JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  const artifacts: Artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (artifacts[name]) throw new Error(`contract name ${name} is defined twice (${file})`);
      artifacts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(artifacts));
  return artifacts;
}

/** solc-js's `compile` on `input` in a process of its own (started from this Node); its JSON output. */
function compileInChildProcess(solcPath: string, input: string): string {
  const script = `let input = ""; process.stdin.on("data", (d) => (input += d)).on("end", () => process.stdout.write(require(${JSON.stringify(solcPath)}).compile(input)));`;
  const run = spawnSync(process.execPath, ["-e", script], { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`solc exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  return run.stdout;
}

/** The artifact of one contract, or a clear error naming what is missing. */
export function artifactOf(artifacts: Artifacts, name: string): Artifact {
  const artifact = artifacts[name];
  if (!artifact) throw new Error(`no compiled contract named ${name}`);
  return artifact;
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
};
