import { db } from "ponder:api";
import { Hono } from "hono";
import { servePublicApi } from "../../api/listener/servePublicApi";

await servePublicApi(db);
// The public port is our own listener; Ponder's server (loopback, operators) keeps only its own routes.
export default new Hono();
