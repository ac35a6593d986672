import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem";
import { errorCodes } from "../../api/errors";
import { baseChainId } from "../../base/baseChain";
import { buyKey } from "../../bench/buyKey";
import type { Manifest } from "../../devnet/manifest";
import { payingFetch } from "../../test/support/payingFetch";

/** Retries of one x402 call whose payment is pending before the soak gives up on it. */
const maxPendingRetries = 10;

/** One answer (or its absence) of the soak's load. */
export type SoakAnswer = { kind: LoadKind; status: number; ms: number; error?: string };

/** What the steady mix sends; `malformed` requests expect a 4xx. */
export type LoadKind = "market" | "audit" | "preflight" | "mcp" | "x402" | "keyPurchase" | "malformed";

/** The codes the service documents with 503 (a source or store it names is down): any other 5xx is unintended. */
const intendedUnavailable = new Set(
  Object.entries(errorCodes)
    .filter(([, code]) => code.status === 503)
    .map(([name]) => name),
);

export type LoadTally = {
  answers: SoakAnswer[];
  /** Keyed answers that cost a credit (2xx of a metered route, or an MCP tool result that is not an error). */
  creditsServed: number;
  /** The settlement transaction of each x402-paid answer (a 2xx with its PAYMENT-RESPONSE receipt). */
  x402Receipts: string[];
  /** Each x402 call that was retried (PAYMENT_PENDING) and still did not end in a paid answer: when it began (s into the load) and its statuses. */
  x402Unfinished: string[];
  /** Why each purchase that did not end in a key failed. */
  failedPurchases: string[];
  /** Transaction hashes of the purchase payments sent (mined when sent). */
  purchasePayments: Hex[];
  /** Requests no replica answered (why, for each): both refused, or the request failed in the client. */
  unanswered: string[];
};

export type SoakLoadParameters = {
  /** The replicas a load balancer would spread the load over. */
  urls: string[];
  manifest: Manifest;
  apiKey: string;
  /** Devnet users (indexes into manifest.accounts.users) that buy keys in turn. */
  buyers: number[];
  /** The devnet user paying x402 calls. */
  x402Payer: number;
  /** Concurrent workers of the steady mix. */
  workers: number;
  /** Seconds between key purchases. */
  purchaseEverySeconds: number;
  /** Lets the soak hold the x402 calls (a reorganisation must not drop a settlement already answered). */
  x402Gate: { paused: boolean; inFlight: number };
  signal: AbortSignal;
};

/**
 * The soak's steady load, until `signal` aborts: `workers` loops over the market, audit, preflight, MCP,
 * x402 and malformed requests (alternating replicas; a refused connection is retried on the next replica,
 * as a load balancer does), and one loop buying a key every `purchaseEverySeconds`.
 */
export async function runSoakLoad(p: SoakLoadParameters): Promise<LoadTally> {
  const tally: LoadTally = {
    answers: [],
    creditsServed: 0,
    x402Receipts: [],
    x402Unfinished: [],
    failedPurchases: [],
    purchasePayments: [],
    unanswered: [],
  };
  const keyed = { "x-api-key": p.apiKey };
  const fixtures = Object.values(p.manifest.contracts);
  const payer = p.manifest.accounts.users[p.x402Payer];
  if (!payer) throw new Error(`no devnet user ${p.x402Payer}`);
  const payerKey = payer.privateKey as Hex;
  const fetcher = { fetch: (request: Request) => fetch(request) };
  let turn = 0;
  const soakStarted = performance.now();

  /** Sends through the next replica; on a refused connection, the following one (each tried once). */
  async function send(kind: LoadKind, path: string, init: RequestInit = {}, via: typeof fetch = fetch): Promise<Response | undefined> {
    let failure = "";
    const first = turn++;
    for (let tries = 0; tries < p.urls.length; tries++) {
      const url = p.urls[(first + tries) % p.urls.length];
      const started = performance.now();
      try {
        const res = await via(`${url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
        const text = await res.text();
        const error = res.ok ? undefined : errorCode(text);
        tally.answers.push({ kind, status: res.status, ms: performance.now() - started, error });
        return new Response(text, { status: res.status, headers: res.headers });
      } catch (error) {
        failure =
          error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`.slice(0, 200) : String(error);
        // Only a refused connection goes to the next replica (as a load balancer does): a request that was
        // sent and then lost may have been charged or settled, so it is not sent again.
        if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNREFUSED") break;
      }
    }
    tally.unanswered.push(`${kind}: ${failure}`);
    return undefined;
  }

  /**
   * One x402-paid call as an agent makes it (x402's payment-identifier): one id per logical call, and a
   * payment whose settlement is not known yet (409 PAYMENT_PENDING) retried under it, never paid twice.
   */
  async function payPerCall() {
    const paid = payingFetch(fetcher, payerKey, generatePaymentId());
    const statuses: number[] = [];
    const startedAt = Math.round((performance.now() - soakStarted) / 1000);
    for (let attempt = 0; attempt < maxPendingRetries; attempt++) {
      const res = await send("x402", "/v1/token/price/USDC", {}, paid);
      statuses.push(res?.status ?? 0);
      if (res?.status !== 409 || errorCode(await res.clone().text()) !== "PAYMENT_PENDING") {
        const receipt = res?.ok ? res.headers.get("payment-response") : null;
        if (receipt) tally.x402Receipts.push(settlementOf(receipt));
        else if (statuses.length > 1) tally.x402Unfinished.push(`at ${startedAt} s: ${statuses.join(" ")}`);
        return;
      }
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000, p.signal);
    }
    tally.x402Unfinished.push(`at ${startedAt} s: ${statuses.join(" ")}`);
  }

  const steady: Array<() => Promise<void>> = [
    async () => {
      const path = ["/v1/token/price/WETH", "/v1/token/price/cbBTC", "/v1/dex/metrics", "/v1/whales/signals", "/v1/gas/fees"][turn % 5];
      if ((await send("market", path ?? "/v1/gas/fees", { headers: keyed }))?.ok) tally.creditsServed++;
    },
    async () => {
      if ((await send("audit", `/v1/audit/${fixtures[turn % fixtures.length]}`, { headers: keyed }))?.ok) tally.creditsServed++;
    },
    async () => {
      const body = JSON.stringify(preflightBody(p.manifest));
      const res = await send("preflight", "/v1/transaction/preflight", {
        method: "POST",
        headers: { ...keyed, "content-type": "application/json" },
        body,
      });
      if (res?.ok) tally.creditsServed++;
    },
    async () => {
      const res = await send("mcp", "/mcp", {
        method: "POST",
        headers: {
          ...keyed,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "svc_get_token_price", arguments: { symbol: "WETH" } },
        }),
      });
      if (res?.ok && (await mcpToolSucceeded(res))) tally.creditsServed++;
    },
    async () => {
      if (p.x402Gate.paused) return sleep(250, p.signal);
      p.x402Gate.inFlight++;
      try {
        await payPerCall();
      } finally {
        p.x402Gate.inFlight--;
      }
    },
    async () => {
      const malformed = [
        { path: "/v1/audit/0x1234", init: { headers: keyed } },
        { path: "/v1/token/price/NOPE", init: { headers: keyed } },
        { path: "/v1/gas/fees?api_key=abc", init: {} },
        {
          path: "/v1/transaction/preflight",
          init: { method: "POST", headers: { ...keyed, "content-type": "application/json" }, body: "{not json" },
        },
      ][turn % 4];
      if (malformed) await send("malformed", malformed.path, malformed.init);
    },
  ];

  const worker = async (offset: number) => {
    for (let i = offset; !p.signal.aborted; i++) await steady[i % steady.length]?.();
  };
  const purchases = async () => {
    for (let i = 0; !p.signal.aborted; i++) {
      await sleep(p.purchaseEverySeconds * 1000, p.signal);
      if (p.signal.aborted) break;
      const buyer = p.buyers[i % p.buyers.length] ?? 0;
      const started = performance.now();
      try {
        await buyKey(p.urls[i % p.urls.length] ?? "", p.manifest, "STARTER", buyer, 90_000, (hash) => tally.purchasePayments.push(hash));
        tally.answers.push({ kind: "keyPurchase", status: 200, ms: performance.now() - started });
      } catch (error) {
        tally.answers.push({ kind: "keyPurchase", status: 0, ms: performance.now() - started, error: String(error).slice(0, 300) });
        tally.failedPurchases.push(String(error).slice(0, 300));
      }
    }
  };
  await Promise.all([...Array.from({ length: p.workers }, (_, i) => worker(i)), purchases()]);
  return tally;
}

/** A 5xx that is not a JSON 503 naming why: a crash, a proxy's page, a timeout. */
export function unintended5xx(answer: SoakAnswer): boolean {
  if (answer.status < 500) return false;
  return answer.status !== 503 || !answer.error || !intendedUnavailable.has(answer.error);
}

/** The settlement transaction a PAYMENT-RESPONSE header (base64 JSON) names. */
function settlementOf(header: string): string {
  const receipt = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { transaction?: string };
  return (receipt.transaction ?? "").toLowerCase();
}

function errorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === "string" ? body.error : undefined;
  } catch {
    return undefined;
  }
}

async function mcpToolSucceeded(res: Response): Promise<boolean> {
  const text = await res.text();
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  const message = JSON.parse(json) as { result?: { isError?: boolean } };
  return message.result !== undefined && message.result.isError !== true;
}

function preflightBody(manifest: Manifest) {
  const data = encodeFunctionData({
    abi: parseAbi(["function mint(address,uint256)"]),
    functionName: "mint",
    args: [manifest.accounts.deployer.address as Address, 1n],
  });
  return { chainId: baseChainId, to: manifest.contracts.diamond, data, from: manifest.accounts.deployer.address };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      done();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
