import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type Address, createWalletClient, http, parseAbi, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type Client,
  createClient,
  type GuardPolicy,
  GuardPolicyRequiredError,
  GuardRefusedError,
  type PaymentChallenge,
  type PaymentReceipt,
  toolAnnotations,
  toolDefinitions,
  transactionGuard,
} from "../../clients/js/src/index";
import { mcpEnv } from "../../clients/js/src/mcp/readMcpConfig";
import { createDevnetClient, devnetChain } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { usdcBalance } from "../support/usdc";
import { type ClientTestService, devnetUser, startClientTestService } from "./support";

const root = resolve(import.meta.dirname, "..", "..");
let running: ClientTestService;
let manifest: Manifest;
let client: Client;
const user = (i: number) => devnetUser(manifest, i);
/** A free key of devnet user `i`, and a client with it. */
async function keyedClient(i: number) {
  const { apiKey } = await client.claimFreeKey(user(i).signer);
  return client.withApiKey(apiKey ?? "");
}

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};
const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? "").join("\n");

/** Launches the package's `base-capability mcp` command (tsx on its source) with `env`, through the official stdio client transport. */
async function launchMcpCommand(env: Record<string, string>): Promise<McpClient> {
  const mcp = new McpClient({ name: "client-tests", version: "1.0.0" });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(root, "node_modules", ".bin", "tsx"), join(root, "clients", "js", "src", "cli.ts"), "mcp"],
      env: { PATH: process.env.PATH ?? "", BASE_CAPABILITY_URL: running.service.baseUrl, ...env },
      stderr: "inherit",
    }),
  );
  return mcp;
}
const call = async (mcp: McpClient, name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as ToolResult;

beforeAll(async () => {
  running = await startClientTestService({});
  manifest = readManifest(running.service.manifestPath);
  client = createClient({ baseUrl: running.service.baseUrl });
}, 300_000);
afterAll(() => running?.stop());

describe("the JS client's tool definitions", () => {
  test("default: they are what the service's tools/list answers: name, title, description, input schema, annotations", async () => {
    const mcp = new McpClient({ name: "client-tests", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", running.service.baseUrl)));
    const { tools } = await mcp.listTools();
    await mcp.close();
    const listed = tools.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    }));
    expect(listed).toEqual(toolDefinitions.map((tool) => ({ ...tool, annotations: toolAnnotations })));
  });
});

describe("the stdio MCP command (base-capability mcp)", () => {
  test("default: with an API key it lists the tools as the service does, and each call is the service's answer at its route's credits", async () => {
    const { apiKey } = await client.claimFreeKey(user(8).signer);
    const keyed = client.withApiKey(apiKey ?? "");
    const mcp = await launchMcpCommand({ BASE_CAPABILITY_API_KEY: apiKey ?? "" });
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).toEqual(
        toolDefinitions.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      );

      const audit = await call(mcp, "svc_audit_contract", { address: manifest.contracts.diamond });
      expect(audit.isError).toBeFalsy();
      expect(audit.structuredContent).toMatchObject({ status: "SUCCESS", address: manifest.contracts.diamond, notASafetyGuarantee: true });
      expect(JSON.parse(textOf(audit))).toEqual(audit.structuredContent);
      expect((await keyed.keySelf()).credits.used).toBe(1);

      const gas = await call(mcp, "svc_get_gas_metrics");
      expect(gas.structuredContent).toMatchObject({ gasPrice: { wei: expect.stringMatching(/^[1-9]\d*$/) } });
      expect(await call(mcp, "svc_get_token_price", { symbol: "weth" })).toMatchObject({ structuredContent: { symbol: "WETH" } });
      expect(await call(mcp, "svc_get_dex_liquidity")).toMatchObject({ structuredContent: { coverage: { scope: "TRACKED_POOLS" } } });
      expect(await call(mcp, "svc_get_whale_signals")).toMatchObject({ structuredContent: { limit: 50 } });
      const taxed = manifest.simulationTokens.find((f) => f.name === "buySellTax");
      const simulation = await call(mcp, "svc_simulate_token_trade", { address: taxed?.address });
      expect(simulation.structuredContent).toMatchObject({ evidenceStatus: "VERIFIED", conclusion: null, pool: { dex: "uniswap-v2" } });
      expect(await call(mcp, "svc_get_service_status")).toMatchObject({
        structuredContent: { status: "OPERATIONAL", apiVersion: "2.2.0" },
      });
      // Five payable calls at one credit each and the simulation at two; the status is free.
      expect((await keyed.keySelf()).credits.used).toBe(7);

      const unknown = await call(mcp, "svc_get_token_price", { symbol: "PEPE" });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/^UNKNOWN_SYMBOL: /);
      expect((await keyed.keySelf()).credits.used).toBe(7);
    } finally {
      await mcp.close();
    }
  }, 120_000);

  test("error: without a key or payment a paid tool is an isError result with PAYMENT_REQUIRED and the challenge; the status stays free", async () => {
    const mcp = await launchMcpCommand({});
    try {
      const refused = await call(mcp, "svc_get_gas_metrics");
      expect(refused.isError).toBe(true);
      const challenge = refused._meta?.["x402/payment-required"] as PaymentChallenge;
      // x402's tool-result binding: the challenge's JSON first, then the code.
      expect(refused.content.map((c) => c.text)).toEqual([JSON.stringify(challenge), expect.stringMatching(/^PAYMENT_REQUIRED: /)]);
      expect(challenge.accepts[0]).toMatchObject({
        scheme: "exact",
        network: "eip155:8453",
        amount: "5000",
        payTo: manifest.payoutAddress,
      });
      expect(await call(mcp, "svc_get_service_status")).toMatchObject({ structuredContent: { status: "OPERATIONAL" } });
    } finally {
      await mcp.close();
    }
  });

  test("error: a paying wallet without a per-call cap, or no service URL, stops the command at start (exit 2, the reason on stderr)", async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number; stderr: string }>((done) =>
        execFile(
          process.execPath,
          [join(root, "node_modules", ".bin", "tsx"), join(root, "clients", "js", "src", "cli.ts"), "mcp"],
          { env: { PATH: process.env.PATH ?? "", ...env } },
          (error, _, stderr) => done({ code: error ? Number(error.code) : 0, stderr }),
        ),
      );
    const uncapped = await run({ BASE_CAPABILITY_URL: running.service.baseUrl, BASE_CAPABILITY_PRIVATE_KEY: user(9).privateKey });
    expect(uncapped).toEqual({ code: 2, stderr: expect.stringContaining("BASE_CAPABILITY_MAX_USDC_PER_CALL must be a USDC amount") });
    expect(await run({})).toEqual({ code: 2, stderr: expect.stringContaining("BASE_CAPABILITY_URL must be the service's URL") });
  });

  test("default: paying per call, one call moves exactly the price to the payout address; a price above the cap is refused unsigned", async () => {
    const payer = user(9);
    const balances = () => Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, manifest.payoutAddress as Address)]);
    const mcp = await launchMcpCommand({ BASE_CAPABILITY_PRIVATE_KEY: payer.privateKey, BASE_CAPABILITY_MAX_USDC_PER_CALL: "0.01" });
    try {
      const before = await balances();
      const paid = await call(mcp, "svc_get_gas_metrics");
      expect(paid.isError, textOf(paid)).toBeFalsy();
      expect(paid._meta?.["x402/payment-response"] as PaymentReceipt).toMatchObject({ success: true, payer: payer.address });
      const after = await balances();
      expect(before[0] - after[0]).toBe(5_000n);
      expect(after[1] - before[1]).toBe(5_000n);

      // The audit costs 0.02 USDC, above the command's 0.01 cap: nothing is signed.
      const capped = await call(mcp, "svc_audit_contract", { address: manifest.contracts.diamond });
      expect(capped.isError).toBe(true);
      expect(capped.content.at(-1)?.text).toMatch(/^PAYMENT_CAP_EXCEEDED: /);
      expect(await balances()).toEqual(after);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});

/** The registry entry's stdio package, as `GET /.well-known/mcp/server.json` lists it. */
type ListedPackage = { identifier: string; version: string; runtimeHint: string };

/**
 * Installs the two packages as npm would from the registry (built, packed, installed from their tarballs into
 * an empty project; their dependencies from npm), and answers that project's directory.
 */
async function installPackedPackages(): Promise<string> {
  const run = promisify(execFile);
  const dir = mkdtempSync(join(tmpdir(), "stdio-package-"));
  const client = join(dir, "client");
  await run(process.execPath, [
    join(root, "node_modules", "typescript", "bin", "tsc"),
    "-p",
    join(root, "clients", "js", "tsconfig.json"),
    "--outDir",
    join(client, "dist"),
  ]);
  for (const file of ["package.json", "README.md"]) copyFileSync(join(root, "clients", "js", file), join(client, file));
  const pack = async (cwd: string) =>
    join(dir, (await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], { cwd })).stdout.trim());
  const tarballs = [await pack(client), await pack(join(root, "clients", "mcp"))];
  const project = join(dir, "project");
  await run("mkdir", [project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], { cwd: project });
  return project;
}

describe("the registry's stdio package (@base-capability/mcp)", () => {
  test("default: installed from npm, the command the registry entry lists starts and serves the tools", async () => {
    const entry = (await (await fetch(`${running.service.baseUrl}/.well-known/mcp/server.json`)).json()) as { packages: ListedPackage[] };
    const [listed] = entry.packages;
    if (!listed) throw new Error("the registry entry lists no package");
    const stdio = JSON.parse(readFileSync(join(root, "clients", "mcp", "package.json"), "utf8")) as {
      version: string;
      dependencies: Record<string, string>;
    };
    const library = JSON.parse(readFileSync(join(root, "clients", "js", "package.json"), "utf8")) as { name: string; version: string };
    // Published together: the command runs exactly the client of its own version.
    expect([stdio.version, stdio.dependencies[library.name]]).toEqual([library.version, library.version]);

    const project = await installPackedPackages();
    try {
      const { apiKey } = await client.claimFreeKey(user(7).signer);
      const keyed = client.withApiKey(apiKey ?? "");
      const mcp = new McpClient({ name: "client-tests", version: "1.0.0" });
      // `npx <identifier>@<version>` as listed; --no-install: the package is the one installed above, not npm's.
      await mcp.connect(
        new StdioClientTransport({
          command: listed.runtimeHint,
          args: ["--no-install", `${listed.identifier}@${listed.version}`],
          cwd: project,
          env: { PATH: process.env.PATH ?? "", [mcpEnv.baseUrl]: running.service.baseUrl, [mcpEnv.apiKey]: apiKey ?? "" },
          stderr: "inherit",
        }),
      );
      try {
        const { tools } = await mcp.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(toolDefinitions.map((tool) => tool.name));
        expect(await call(mcp, "svc_get_token_price", { symbol: "weth" })).toMatchObject({ structuredContent: { symbol: "WETH" } });
        expect((await keyed.keySelf()).credits.used).toBe(1);
      } finally {
        await mcp.close();
      }
    } finally {
      rmSync(join(project, ".."), { recursive: true, force: true });
    }
  }, 180_000);
});

describe("the viem transaction guard", () => {
  const selfDestructAbi = parseAbi(["function destroy(address recipient)"]);
  const tokenAbi = parseAbi([
    "function approve(address spender, uint256 amount) returns (bool)",
    "function transfer(address to, uint256 amount) returns (bool)",
  ]);
  /** Refuses a target whose audit shows SELFDESTRUCT or DELEGATECALL; on a preflight, a call whose simulation did not succeed. */
  const policy: GuardPolicy = (observation) => {
    if (observation.kind === "preflight") {
      const outcome = observation.preflight.simulationObservation as { outcome: string } | undefined;
      return outcome?.outcome === "SUCCEEDED" ? { allow: true } : { allow: false, reason: `simulation ${outcome?.outcome}` };
    }
    const refused = observation.audit.detectedCapabilities.filter((c) => c === "SELFDESTRUCT_OPCODE" || c === "DELEGATECALL_OPCODE");
    return refused.length ? { allow: false, reason: `the target has ${refused.join(", ")}` } : { allow: true };
  };
  const deployer = () => manifest.accounts.deployer;
  const wallet = () =>
    createWalletClient({
      account: privateKeyToAccount(deployer().privateKey),
      chain: devnetChain(manifest.rpcUrl),
      transport: http(manifest.rpcUrl),
    });
  const chain = () => createDevnetClient(manifest.rpcUrl, deployer().privateKey);
  const nonce = () => chain().getTransactionCount({ address: deployer().address, blockTag: "pending" });

  test("error: without a policy the guard refuses to decide: GuardPolicyRequiredError, nothing observed or sent", async () => {
    const keyed = await keyedClient(10);
    const guarded = wallet().extend(transactionGuard({ client: keyed, policy: undefined }));
    const before = await nonce();
    const refused = await guarded
      .writeContract({
        address: manifest.contracts.plainToken as Address,
        abi: tokenAbi,
        functionName: "approve",
        args: [user(1).address, 1n],
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GuardPolicyRequiredError);
    expect(refused).toMatchObject({ code: "GUARD_POLICY_REQUIRED" });
    expect(await nonce()).toBe(before);
    expect((await keyed.keySelf()).credits.used).toBe(0);
  });

  test("error: a wallet on another chain than Base is refused before anything is observed or sent (GUARD_WRONG_CHAIN)", async () => {
    const keyed = await keyedClient(13);
    const otherChain = createWalletClient({
      account: privateKeyToAccount(deployer().privateKey),
      chain: { ...devnetChain(manifest.rpcUrl), id: 1 },
      transport: http(manifest.rpcUrl),
    });
    const guarded = otherChain.extend(transactionGuard({ client: keyed, policy: () => ({ allow: true }) }));
    const before = await nonce();
    const usedBefore = (await keyed.keySelf()).credits.used;
    const refused = await guarded.sendTransaction({ to: manifest.contracts.plainToken as Address, value: 0n }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "TransactionGuardError", code: "GUARD_WRONG_CHAIN" });
    expect(await nonce()).toBe(before);
    expect((await keyed.keySelf()).credits.used).toBe(usedBefore);
  });

  test("behavior: a policy that rejects the audited target blocks the call (nothing mined), and lets a permitted call through", async () => {
    const keyed = await keyedClient(11);
    const guarded = wallet().extend(transactionGuard({ client: keyed, policy }));
    const target = manifest.contracts.selfDestructor as Address;
    const before = await nonce();
    const blocked = await guarded
      .writeContract({ address: target, abi: selfDestructAbi, functionName: "destroy", args: [deployer().address] })
      .catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(GuardRefusedError);
    expect(blocked).toMatchObject({ code: "GUARD_REFUSED", reason: "the target has SELFDESTRUCT_OPCODE", observation: { kind: "audit" } });
    expect(await nonce()).toBe(before);
    expect(await chain().getCode({ address: target })).not.toBe(undefined);

    const viaSend = await guarded.sendTransaction({ to: manifest.contracts.delegateCaller as Address, value: 0n }).catch((e: unknown) => e);
    expect(viaSend).toMatchObject({ name: "GuardRefusedError", reason: "the target has DELEGATECALL_OPCODE" });
    expect(await nonce()).toBe(before);

    const hash = await guarded.writeContract({
      address: manifest.contracts.plainToken as Address,
      abi: tokenAbi,
      functionName: "approve",
      args: [user(1).address, parseEther("1")],
    });
    expect((await chain().waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await nonce()).toBe(before + 1);
    // Three audits were asked for: each observation costs its credit, blocked or not.
    expect((await keyed.keySelf()).credits.used).toBe(3);
  }, 120_000);

  test("behavior: observing by preflight of the exact call: a call whose simulation reverts is blocked, one that succeeds is sent", async () => {
    const keyed = await keyedClient(12);
    const guarded = wallet().extend(transactionGuard({ client: keyed, policy, observe: "preflight" }));
    const token = manifest.contracts.plainToken as Address;
    const before = await nonce();
    const tooMuch = await guarded
      .writeContract({ address: token, abi: tokenAbi, functionName: "transfer", args: [user(1).address, parseEther("1000000000")] })
      .catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ name: "GuardRefusedError", reason: "simulation REVERTED", observation: { kind: "preflight" } });
    expect(await nonce()).toBe(before);

    const hash = await guarded.writeContract({ address: token, abi: tokenAbi, functionName: "transfer", args: [user(1).address, 1n] });
    expect((await chain().waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await nonce()).toBe(before + 1);
  }, 120_000);
});
