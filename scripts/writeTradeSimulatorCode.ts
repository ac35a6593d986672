import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AbiFunction, AbiParameter } from "viem";
import { artifactOf, compileFixtures } from "../devnet/compile";

/** api/market/tradeSimulatorCode.ts's text from a compile of devnet/contracts/TradeSimulator.sol. */
export function tradeSimulatorCodeSource(): string {
  const artifact = artifactOf(compileFixtures(), "TradeSimulator");
  const simulate = artifact.abi.find((entry): entry is AbiFunction => entry.type === "function" && entry.name === "simulate");
  if (!simulate) throw new Error("TradeSimulator has no simulate()");
  const structs = new Map<string, string>();
  const typeOf = (p: AbiParameter): string => {
    if (!("components" in p) || !p.components) return p.type;
    const name = (p.internalType ?? "").replace(/^struct \w+\./, "").replace(/\[\]$/, "");
    const fields = p.components.map((c) => `${typeOf(c)} ${c.name}`).join("; ");
    structs.set(name, `struct ${name} { ${fields}; }`);
    return p.type.replace("tuple", name);
  };
  const signature = `function simulate(${simulate.inputs.map((p) => `${typeOf(p)} ${p.name}`).join(", ")}) returns (${simulate.outputs.map((p) => `${typeOf(p)} ${p.name}`).join(", ")})`;
  const lines = [...structs.values(), signature].map((l) => `  ${JSON.stringify(l)},`).join("\n");
  return `// Generated from devnet/contracts/TradeSimulator.sol (solc as devnet/compile.ts runs it); test/market/tradeSimulatorCode.test.ts
// checks it against a fresh compile. Regenerate: npx tsx scripts/writeTradeSimulatorCode.ts
import { parseAbi } from "viem";

/** TradeSimulator.simulate, the one entry the API calls. */
export const tradeSimulatorAbi = parseAbi([
${lines}
]);

/** TradeSimulator's runtime code, placed by state override at the synthetic trader and its peer. */
export const tradeSimulatorRuntime =
  "${artifact.deployedBytecode}" as const;
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(fileURLToPath(new URL("../api/market/tradeSimulatorCode.ts", import.meta.url)), tradeSimulatorCodeSource());
}
