import { mkdirSync, writeFileSync } from "node:fs";
import { encodeFunctionData, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../api/config";
import { frozenDirectory } from "../api/samples/sampleCatalogue";
import type { CaptureName } from "../api/samples/sampleNames";
import { baseChainId } from "../base/baseChain";
import { readManifest } from "../devnet/manifest";

/**
 * Captures the frozen samples of GET /v1/sample from a running devnet service (`npm start`): a free key
 * for a fresh wallet (a signature, no funds), then one real paid call per capture (the published samples,
 * and the audit, score and trade simulation the x402 discovery examples come from), each answer written to
 * samples/<name>.json. Run: `npx tsx scripts/captureSamples.ts [API_URL] [NAME...]` (names: only those
 * captures, e.g. the one whose route changed shape).
 */
async function main() {
  const config = loadConfig();
  if (config.chain.kind !== "devnet") throw new Error("capture samples from the devnet (no BASE_RPC_* set)");
  const api = process.argv[2] ?? `http://127.0.0.1:${config.port}`;
  const manifest = readManifest(config.chain.manifestPath);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  const wallet = privateKeyToAccount(generatePrivateKey());
  const { intent } = (await (await post("/v1/subscribe/free/challenge", { userWallet: wallet.address })).json()) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await wallet.signMessage({ message: intent.messageToSign });
  const { apiKey } = (await (await post("/v1/subscribe/free/claim", { intentId: intent.intentId, signature })).json()) as {
    apiKey: string;
  };
  const key = { "x-api-key": apiKey };

  const owner = manifest.accounts.deployer.address;
  const preflight = {
    chainId: baseChainId,
    to: manifest.contracts.diamond,
    data: encodeFunctionData({ abi: parseAbi(["function mint(address,uint256)"]), functionName: "mint", args: [owner, 1n] }),
    from: owner,
  };
  const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  // The fixture taking 3% on buys and 7% on sells: a simulation whose figures show what it observes.
  const taxed = manifest.simulationTokens.find((f) => f.name === "buySellTax")?.address;
  if (!taxed) throw new Error("the devnet manifest has no buySellTax simulation fixture");
  const calls: Record<CaptureName, { paidRoute: string; request?: unknown; send: () => Promise<Response> }> = {
    "gas-fees": { paidRoute: "GET /v1/gas/fees", send: () => fetch(`${api}/v1/gas/fees`, { headers: key }) },
    "dex-metrics": { paidRoute: "GET /v1/dex/metrics", send: () => fetch(`${api}/v1/dex/metrics`, { headers: key }) },
    "token-price": { paidRoute: "GET /v1/token/price/WETH", send: () => fetch(`${api}/v1/token/price/WETH`, { headers: key }) },
    "whale-signals": { paidRoute: "GET /v1/whales/signals", send: () => fetch(`${api}/v1/whales/signals`, { headers: key }) },
    "transaction-preflight": {
      paidRoute: "POST /v1/transaction/preflight",
      request: preflight,
      send: () => post("/v1/transaction/preflight", preflight, key),
    },
    audit: { paidRoute: `GET /v1/audit/${usdc}`, send: () => fetch(`${api}/v1/audit/${usdc}`, { headers: key }) },
    "security-score": {
      paidRoute: `GET /v1/security/score/${usdc}`,
      send: () => fetch(`${api}/v1/security/score/${usdc}`, { headers: key }),
    },
    "trade-simulation": {
      paidRoute: `GET /v1/token/simulation/${taxed}`,
      send: () => fetch(`${api}/v1/token/simulation/${taxed}`, { headers: key }),
    },
  };
  mkdirSync(frozenDirectory, { recursive: true });
  const only = process.argv.slice(3);
  for (const [name, call] of Object.entries(calls).filter(([name]) => only.length === 0 || only.includes(name))) {
    const res = await call.send();
    const response = await res.json();
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(response)}`);
    const capture = {
      capturedAt: new Date().toISOString(),
      paidRoute: call.paidRoute,
      ...(call.request ? { request: call.request } : {}),
      response,
    };
    writeFileSync(`${frozenDirectory}/${name}.json`, `${JSON.stringify(capture, null, 2)}\n`);
    console.log(`[samples] ${name}: captured from ${call.paidRoute}`);
  }
}

await main();
