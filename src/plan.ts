import { loadConfig } from "../api/config";
import { indexerPlan } from "./config/indexerPlan";

/** The indexer's plan, resolved once per process from the same configuration as ponder.config.ts. */
export const plan = indexerPlan(loadConfig());
