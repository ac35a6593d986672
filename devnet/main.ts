import { loadConfig } from "../api/config";
import { startDevnet } from "./startDevnet";

/** `npm run devnet`: the embedded chain alone, with its manifest and traffic, until Ctrl-C. */
const config = loadConfig();
if (config.chain.kind !== "devnet") throw new Error("BASE_RPC_URLS/BASE_RPC_PRIMARY_URL are set: there is no devnet to run");
const devnet = await startDevnet({ ...config.devnet, manifestPath: config.chain.manifestPath });
console.log(`devnet on ${devnet.manifest.rpcUrl} (chain ${devnet.manifest.chainId}); manifest ${config.chain.manifestPath}`);
const stop = () => void devnet.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
