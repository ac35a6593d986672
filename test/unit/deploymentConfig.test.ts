import { describe, expect, test } from "vitest";
import { resolveProviders } from "../../api/chain/providers";
import { loadConfig } from "../../api/config";
import { ponderNodeFlags } from "../../scripts/ponderProcess";

const pepper = "p".repeat(32);

describe("providers and stores by deployment", () => {
  test("default: the devnet reads its own node as the one trusted provider; DEVNET_PROVIDER_URLS replaces it with public providers (quorum rule)", () => {
    expect(resolveProviders(loadConfig({}).chain, "http://127.0.0.1:8545")).toEqual([
      { name: "devnet", url: "http://127.0.0.1:8545", trusted: true, timeoutMs: 4000 },
    ]);
    const proxied = loadConfig({ DEVNET_PROVIDER_URLS: "http://127.0.0.1:1001,http://127.0.0.1:1002" });
    expect(resolveProviders(proxied.chain, "http://127.0.0.1:8545")).toEqual([
      { name: "public-1:127.0.0.1", url: "http://127.0.0.1:1001", trusted: false, timeoutMs: 4000 },
      { name: "public-2:127.0.0.1", url: "http://127.0.0.1:1002", trusted: false, timeoutMs: 4000 },
    ]);
  });

  test("default: the embedded devnet keeps the app store in the index's PGlite; Base without DATABASE_URL keeps it apart; Postgres holds both", () => {
    expect(loadConfig({}).appStore).toEqual({ kind: "index-pglite" });
    expect(
      loadConfig({ BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: pepper, APP_PGLITE_DIR: "/data/app" }).appStore,
    ).toEqual({
      kind: "pglite",
      directory: "/data/app",
    });
    expect(loadConfig({ DATABASE_URL: "postgres://db.example/svc" }).appStore).toEqual({
      kind: "postgres",
      url: "postgres://db.example/svc",
    });
  });

  test("default: the Ponder processes' heap is capped at 256 MB on the devnet and left to Node on Base; PONDER_HEAP_MB sets it", () => {
    expect(loadConfig({}).ponderHeapMb).toBe(256);
    expect(loadConfig({ BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: pepper }).ponderHeapMb).toBeUndefined();
    expect(loadConfig({ PONDER_HEAP_MB: "1024" }).ponderHeapMb).toBe(1024);
    expect(() => loadConfig({ PONDER_HEAP_MB: "64" })).toThrow(/PONDER_HEAP_MB/);
  });

  test("default: the cluster's API replicas' heap is capped at 192 MB on the devnet and follows PONDER_HEAP_MB on Base; PONDER_REPLICA_HEAP_MB sets it", () => {
    const base = { BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: pepper };
    expect(loadConfig({}).ponderReplicaHeapMb).toBe(192);
    expect(loadConfig({ PONDER_HEAP_MB: "1024" }).ponderReplicaHeapMb).toBe(192);
    expect(loadConfig(base).ponderReplicaHeapMb).toBeUndefined();
    expect(loadConfig({ ...base, PONDER_HEAP_MB: "2048" }).ponderReplicaHeapMb).toBe(2048);
    expect(loadConfig({ PONDER_REPLICA_HEAP_MB: "300" }).ponderReplicaHeapMb).toBe(300);
    expect(() => loadConfig({ PONDER_REPLICA_HEAP_MB: "64" })).toThrow(/PONDER_REPLICA_HEAP_MB/);
  });

  test("default: on Postgres every Ponder process gets a 64 MB semi-space, on PGlite Node's own; PONDER_SEMI_SPACE_MB sets it, beside the old space's cap", () => {
    expect(ponderNodeFlags({})).toEqual([]);
    const onPostgres = loadConfig({ DATABASE_URL: "postgres://db.example/svc" });
    expect(ponderNodeFlags({ semiSpaceMb: onPostgres.ponderSemiSpaceMb })).toEqual(["--max-semi-space-size=64"]);
    const config = loadConfig({ PONDER_SEMI_SPACE_MB: "32" });
    expect(config.ponderSemiSpaceMb).toBe(32);
    expect(ponderNodeFlags({ oldSpaceMb: config.ponderHeapMb, semiSpaceMb: config.ponderSemiSpaceMb })).toEqual([
      "--max-old-space-size=256",
      "--max-semi-space-size=32",
    ]);
    expect(loadConfig({}).ponderSemiSpaceMb).toBeUndefined();
    expect(() => loadConfig({ PONDER_SEMI_SPACE_MB: "0" })).toThrow(/PONDER_SEMI_SPACE_MB/);
  });
});
