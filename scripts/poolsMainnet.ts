import { basePoolCandidates } from "../base/baseDexDeployments";

// A reader that stops early (`| head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

/** Prints the mainnet plan offline as one JSON array, an object per derived candidate pool (`npm run -s pools:mainnet`). */
process.stdout.write(`${JSON.stringify(basePoolCandidates(), null, 2)}\n`);
