import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ObservationBlock } from "../../api/chain/ObservationBlock";
import { pinObservationBlock } from "../../api/chain/pinObservationBlock";
import type { ReadHead } from "../../api/chain/probeProvider";
import type { RpcProvider } from "../../api/chain/providers";
import { pinnedBlock } from "../support/observationBlock";

type Hash = `0x${string}`;
/** A distinct 0x-64-hex block hash per seed. */
const hash = (seed: number): Hash => `0x${seed.toString(16).padStart(64, "0")}`;
const A = hash(0xa1);
const B = hash(0xb2);

const trusted = (name: string): RpcProvider => ({ name, url: `http://${name}.invalid`, trusted: true });
const pub = (name: string): RpcProvider => ({ name, url: `http://${name}.invalid`, trusted: false });

/** What one provider answers: its head (number and hash) or "down", and by block tag the hash it holds there (else down). */
type Answers = { head: { number: number; hash: Hash } | "down"; at?: Record<string, Hash | "down"> };

/** A readHead answering from an in-memory table of provider heads, recording each question as [provider, tag]. */
function chain(table: Record<string, Answers>) {
  const asked: [string, string | undefined][] = [];
  const readHead: ReadHead = async (provider, tag) => {
    asked.push([provider.name, tag]);
    const answers = table[provider.name];
    if (!answers) throw new Error(`no answers for ${provider.name}`);
    const answer =
      tag === undefined
        ? answers.head
        : ((hash: Hash | "down") => (hash === "down" ? hash : { number: Number.parseInt(tag, 16), hash }))(answers.at?.[tag] ?? "down");
    return answer === "down"
      ? { provider, available: false, error: "timeout", latencyMs: 3 }
      : { provider, available: true, number: answer.number, hash: answer.hash, latencyMs: 3 };
  };
  return { readHead, asked };
}

const at = "2025-03-04T05:06:07.089Z";
const now = () => new Date(at);

/** A pinned observation on Base (8453) at the injected now; every field that varies is stated by the test. */
function pinned(fields: {
  blockNumber: number;
  blockTag: string;
  blockHash: Hash;
  providerName: string;
  trustLevel: ObservationBlock["trustLevel"];
  evidenceGrade: boolean;
  agreement: number;
  sampled: number;
  reason: string | null;
}): ObservationBlock {
  return pinnedBlock(fields.blockNumber, { ...fields, retrievedAt: at, originalRetrievalTime: at });
}
/** The unpinned observation on Base (8453) at the injected now: no block, UNVERIFIED, `sampled` heads and why. */
function unpinned(reason: string, sampled: number): ObservationBlock {
  return {
    status: "UNPINNED",
    chainId: 8453,
    network: "eip155:8453",
    blockNumber: null,
    blockHash: null,
    blockTag: null,
    trustLevel: "UNVERIFIED",
    evidenceGrade: false,
    providerName: null,
    agreement: 0,
    sampled,
    reason,
    retrievedAt: at,
    originalRetrievalTime: at,
  };
}
const heads = (...names: string[]) => names.map((name): [string, string | undefined] => [name, undefined]);

describe("pinObservationBlock (in-memory provider heads)", () => {
  test("default: a trusted primary alone pins its head: TRUSTED_PRIMARY, evidence grade, asked once for its head", async () => {
    const { readHead, asked } = chain({ primary: { head: { number: 0x1ab, hash: A } } });
    const block = await pinObservationBlock({ providers: [trusted("primary")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 0x1ab,
        blockTag: "0x1ab",
        blockHash: A,
        providerName: "primary",
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        agreement: 1,
        sampled: 1,
        reason: null,
      }),
    );
    expect(asked).toEqual(heads("primary"));
  });

  test("behavior: the chain id names the network; retrievedAt and originalRetrievalTime are the injected now", async () => {
    const { readHead } = chain({ primary: { head: { number: 7, hash: A } } });
    const block = await pinObservationBlock({ providers: [trusted("primary")], chainId: 84532, now, readHead });
    expect(block).toEqual({
      status: "PINNED",
      chainId: 84532,
      network: "eip155:84532",
      blockNumber: 7,
      blockHash: A,
      blockTag: "0x7",
      trustLevel: "TRUSTED_PRIMARY",
      evidenceGrade: true,
      providerName: "primary",
      agreement: 1,
      sampled: 1,
      reason: null,
      retrievedAt: at,
      originalRetrievalTime: at,
    });
  });

  test("behavior: the lowest head is pinned; providers at another head are asked for its hash by tag 0x<hex>, the ones at it are not", async () => {
    const { readHead, asked } = chain({
      p1: { head: { number: 0x102, hash: hash(1) }, at: { "0x100": A } },
      p2: { head: { number: 0x100, hash: A } },
      p3: { head: { number: 0x101, hash: hash(2) }, at: { "0x100": A } },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), pub("p2"), pub("p3")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 0x100,
        blockTag: "0x100",
        blockHash: A,
        providerName: "p1",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 3,
        sampled: 3,
        reason: null,
      }),
    );
    expect(asked).toEqual([...heads("p1", "p2", "p3"), ["p1", "0x100"], ["p3", "0x100"]]);
  });

  test("behavior: a requested blockNumber is pinned instead of the lowest head, below every head (all asked by tag)", async () => {
    const { readHead, asked } = chain({
      p1: { head: { number: 300, hash: hash(1) }, at: { "0xfa": A } },
      p2: { head: { number: 302, hash: hash(2) }, at: { "0xfa": A } },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), pub("p2")], chainId: 8453, blockNumber: 250, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 250,
        blockTag: "0xfa",
        blockHash: A,
        providerName: "p1",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
    expect(asked).toEqual([...heads("p1", "p2"), ["p1", "0xfa"], ["p2", "0xfa"]]);
  });

  test("behavior: a requested block between the heads, or at the highest one, is pinned; a provider at it is not asked again, one below it has no such block", async () => {
    // As a real provider: no hash for a block above its own head (probeProvider reads null as unavailable).
    const table: Record<string, Answers> = {
      p1: { head: { number: 300, hash: hash(1) } },
      p2: { head: { number: 302, hash: B }, at: { "0x12d": A } },
      p3: { head: { number: 301, hash: A } },
    };
    const providers = [pub("p1"), pub("p2"), pub("p3")];
    const between = chain(table);
    expect(await pinObservationBlock({ providers, chainId: 8453, blockNumber: 301, now, readHead: between.readHead })).toEqual(
      pinned({
        blockNumber: 301,
        blockTag: "0x12d",
        blockHash: A,
        providerName: "p2",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
    expect(between.asked).toEqual([...heads("p1", "p2", "p3"), ["p1", "0x12d"], ["p2", "0x12d"]]);

    const highest = chain(table);
    expect(await pinObservationBlock({ providers, chainId: 8453, blockNumber: 302, now, readHead: highest.readHead })).toEqual(
      pinned({
        blockNumber: 302,
        blockTag: "0x12e",
        blockHash: B,
        providerName: "p2",
        trustLevel: "UNVERIFIED",
        evidenceGrade: false,
        agreement: 1,
        sampled: 1,
        reason: "NO_PUBLIC_QUORUM",
      }),
    );
    expect(highest.asked).toEqual([...heads("p1", "p2", "p3"), ["p1", "0x12e"], ["p3", "0x12e"]]);
  });

  test("error: a requested block above every head is UNPINNED REQUESTED_BLOCK_NOT_YET_MINED, sampling the heads that answered", async () => {
    const { readHead, asked } = chain({
      primary: { head: { number: 300, hash: A } },
      p1: { head: "down" },
      p2: { head: { number: 299, hash: hash(2) } },
    });
    const block = await pinObservationBlock({
      providers: [trusted("primary"), pub("p1"), pub("p2")],
      chainId: 8453,
      blockNumber: 301,
      now,
      readHead,
    });
    expect(block).toEqual(unpinned("REQUESTED_BLOCK_NOT_YET_MINED", 2));
    expect(asked).toEqual(heads("primary", "p1", "p2"));
  });

  test("error: no provider answering its head is UNPINNED NO_PROVIDER_ANSWERED with nothing sampled, a block requested or not; so is no provider at all", async () => {
    const { readHead, asked } = chain({ primary: { head: "down" }, p1: { head: "down" } });
    const noAnswer = unpinned("NO_PROVIDER_ANSWERED", 0);
    expect(await pinObservationBlock({ providers: [trusted("primary"), pub("p1")], chainId: 8453, now, readHead })).toEqual(noAnswer);
    expect(asked).toEqual(heads("primary", "p1"));
    expect(await pinObservationBlock({ providers: [], chainId: 8453, now, readHead })).toEqual(noAnswer);
    // A requested block is not "not yet mined" when no head answered at all.
    const requested = await pinObservationBlock({
      providers: [trusted("primary"), pub("p1")],
      chainId: 8453,
      blockNumber: 5,
      now,
      readHead,
    });
    expect(requested).toEqual(noAnswer);
  });

  test("error: heads that answer but none answering the pinned block by tag is UNPINNED NO_PROVIDER_ANSWERED, sampling the heads", async () => {
    const { readHead, asked } = chain({
      primary: { head: { number: 300, hash: A } },
      p1: { head: { number: 301, hash: B }, at: { "0x64": "down" } },
      p2: { head: "down" },
    });
    const block = await pinObservationBlock({
      providers: [trusted("primary"), pub("p1"), pub("p2")],
      chainId: 8453,
      blockNumber: 100,
      now,
      readHead,
    });
    expect(block).toEqual(unpinned("NO_PROVIDER_ANSWERED", 2));
    expect(asked).toEqual([...heads("primary", "p1", "p2"), ["primary", "0x64"], ["p1", "0x64"]]);
  });

  test("behavior: a trusted primary is TRUSTED_PRIMARY with public providers present, and the chosen provider though not first", async () => {
    const { readHead } = chain({
      p1: { head: { number: 0x20, hash: A } },
      primary: { head: { number: 0x21, hash: hash(9) }, at: { "0x20": A } },
      p2: { head: { number: 0x20, hash: A } },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), trusted("primary"), pub("p2")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 0x20,
        blockTag: "0x20",
        blockHash: A,
        providerName: "primary",
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        agreement: 3,
        sampled: 3,
        reason: null,
      }),
    );
  });

  test("behavior: a trusted primary with one agreeing public provider (no public quorum) is still TRUSTED_PRIMARY", async () => {
    const { readHead } = chain({ p1: { head: { number: 5, hash: A } }, primary: { head: { number: 5, hash: A } }, p2: { head: "down" } });
    const block = await pinObservationBlock({ providers: [pub("p1"), trusted("primary"), pub("p2")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 5,
        blockTag: "0x5",
        blockHash: A,
        providerName: "primary",
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
  });

  test("behavior: two of three public providers agreeing are a quorum (the third down); three of four are too", async () => {
    const twoOfThree = chain({ p1: { head: "down" }, p2: { head: { number: 9, hash: A } }, p3: { head: { number: 9, hash: A } } });
    expect(
      await pinObservationBlock({ providers: [pub("p1"), pub("p2"), pub("p3")], chainId: 8453, now, readHead: twoOfThree.readHead }),
    ).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: A,
        providerName: "p2",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
    const threeOfFour = chain({
      p1: { head: { number: 9, hash: A } },
      p2: { head: { number: 9, hash: A } },
      p3: { head: "down" },
      p4: { head: { number: 9, hash: A } },
    });
    expect(
      await pinObservationBlock({
        providers: [pub("p1"), pub("p2"), pub("p3"), pub("p4")],
        chainId: 8453,
        now,
        readHead: threeOfFour.readHead,
      }),
    ).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: A,
        providerName: "p1",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 3,
        sampled: 3,
        reason: null,
      }),
    );
  });

  test("error: two of four public providers agreeing are not a majority of those configured: UNVERIFIED NO_PUBLIC_QUORUM", async () => {
    const { readHead } = chain({
      p1: { head: "down" },
      p2: { head: { number: 9, hash: A } },
      p3: { head: { number: 9, hash: A } },
      p4: { head: "down" },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), pub("p2"), pub("p3"), pub("p4")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: A,
        providerName: "p2",
        trustLevel: "UNVERIFIED",
        evidenceGrade: false,
        agreement: 2,
        sampled: 2,
        reason: "NO_PUBLIC_QUORUM",
      }),
    );
  });

  test("error: the one public provider configured, answering alone, is UNVERIFIED NO_PUBLIC_QUORUM (a quorum needs two)", async () => {
    const { readHead } = chain({ p1: { head: { number: 9, hash: A } } });
    const block = await pinObservationBlock({ providers: [pub("p1")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: A,
        providerName: "p1",
        trustLevel: "UNVERIFIED",
        evidenceGrade: false,
        agreement: 1,
        sampled: 1,
        reason: "NO_PUBLIC_QUORUM",
      }),
    );
  });

  test("behavior: trusted providers that are down do not count among the public providers a majority is taken of", async () => {
    const { readHead } = chain({
      primary: { head: "down" },
      p1: { head: { number: 9, hash: A } },
      p2: { head: { number: 9, hash: A } },
      p3: { head: "down" },
    });
    const block = await pinObservationBlock({
      providers: [trusted("primary"), pub("p1"), pub("p2"), pub("p3")],
      chainId: 8453,
      now,
      readHead,
    });
    expect(block).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: A,
        providerName: "p1",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
  });

  test("behavior: a provider that answers its head but not the pinned block is not sampled", async () => {
    const { readHead, asked } = chain({
      p1: { head: { number: 0x40, hash: A } },
      p2: { head: { number: 0x42, hash: hash(2) }, at: { "0x40": "down" } },
      p3: { head: { number: 0x41, hash: hash(3) }, at: { "0x40": A } },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), pub("p2"), pub("p3")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 0x40,
        blockTag: "0x40",
        blockHash: A,
        providerName: "p1",
        trustLevel: "PUBLIC_QUORUM",
        evidenceGrade: true,
        agreement: 2,
        sampled: 2,
        reason: null,
      }),
    );
    expect(asked).toEqual([...heads("p1", "p2", "p3"), ["p2", "0x40"], ["p3", "0x40"]]);
  });

  test("error: two different hashes at the pinned block are UNVERIFIED PROVIDERS_DISAGREE_ON_BLOCK_HASH, even with a trusted primary", async () => {
    const { readHead } = chain({
      p1: { head: { number: 9, hash: A } },
      primary: { head: { number: 10, hash: hash(10) }, at: { "0x9": B } },
      p2: { head: { number: 9, hash: A } },
      p3: { head: { number: 9, hash: A } },
    });
    const block = await pinObservationBlock({
      providers: [pub("p1"), trusted("primary"), pub("p2"), pub("p3")],
      chainId: 8453,
      now,
      readHead,
    });
    expect(block).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: B,
        providerName: "primary",
        trustLevel: "UNVERIFIED",
        evidenceGrade: false,
        agreement: 1,
        sampled: 4,
        reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH",
      }),
    );
  });

  test("error: public providers disagreeing are UNVERIFIED; the first answering is chosen and agreement counts those sharing its hash", async () => {
    const { readHead } = chain({
      p1: { head: { number: 11, hash: hash(11) }, at: { "0x9": B } },
      p2: { head: { number: 9, hash: A } },
      p3: { head: { number: 9, hash: A } },
      p4: { head: { number: 10, hash: hash(10) }, at: { "0x9": B } },
    });
    const block = await pinObservationBlock({ providers: [pub("p1"), pub("p2"), pub("p3"), pub("p4")], chainId: 8453, now, readHead });
    expect(block).toEqual(
      pinned({
        blockNumber: 9,
        blockTag: "0x9",
        blockHash: B,
        providerName: "p1",
        trustLevel: "UNVERIFIED",
        evidenceGrade: false,
        agreement: 2,
        sampled: 4,
        reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH",
      }),
    );
  });
});

describe("pinObservationBlock (defaults: the clock and JSON-RPC reads)", () => {
  let server: Server;
  let url = "";
  /** Answers eth_getBlockByNumber: block 0x2a for "latest" and its tag; `/slow` answers after 500 ms. */
  const blockAnswer = { number: "0x2a", hash: A.toUpperCase().replace("0X", "0x") };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const requests = JSON.parse(body) as { id: number; params: [string, boolean] }[];
        const answers = requests.map(({ id, params: [tag] }) => ({
          jsonrpc: "2.0",
          id,
          result: tag === "latest" || tag === "0x2a" ? blockAnswer : null,
        }));
        const send = () => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(answers));
        };
        if (req.url === "/slow") setTimeout(send, 500);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test("default: without readHead the providers are read over JSON-RPC; without now, retrievedAt is the current time", async () => {
    const before = Date.now();
    const block = await pinObservationBlock({ providers: [{ name: "primary", url, trusted: true }], chainId: 8453 });
    const after = Date.now();
    expect(block).toEqual({
      status: "PINNED",
      chainId: 8453,
      network: "eip155:8453",
      blockNumber: 42,
      blockHash: A,
      blockTag: "0x2a",
      trustLevel: "TRUSTED_PRIMARY",
      evidenceGrade: true,
      providerName: "primary",
      agreement: 1,
      sampled: 1,
      reason: null,
      retrievedAt: block.retrievedAt,
      originalRetrievalTime: block.retrievedAt,
    });
    const retrieved = Date.parse(block.retrievedAt);
    expect(retrieved).toBeGreaterThanOrEqual(before);
    expect(retrieved).toBeLessThanOrEqual(after);
  });

  test("error: a provider slower than its timeout has not answered: UNPINNED NO_PROVIDER_ANSWERED", async () => {
    // Its head read waits half the provider's timeout: 50 ms.
    const block = await pinObservationBlock({
      providers: [{ name: "slow", url: `${url}/slow`, trusted: true, timeoutMs: 100 }],
      chainId: 8453,
      now,
    });
    expect(block).toMatchObject({ status: "UNPINNED", reason: "NO_PROVIDER_ANSWERED", sampled: 0 });
  });
});
