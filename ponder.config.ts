import { createConfig } from "ponder";
import { loadConfig } from "./api/config";
import { indexerRpcUrls } from "./api/indexerRpc";

const config = loadConfig();

export default createConfig({
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.url }
      : { kind: "pglite", directory: config.database.directory },
  chains: {
    base: {
      id: 8453,
      rpc: indexerRpcUrls(config.chain),
      pollingInterval: config.chain.kind === "devnet" ? 250 : 1_000,
    },
  },
  blocks: {
    ChainHead: { chain: "base", startBlock: "latest", interval: 1 },
  },
});
