import { db } from "ponder:api";
import { servePublicApi } from "../../api/listener/servePublicApi";

// The public port is our own listener; Ponder's server (loopback, operators) serves the same app.
export default await servePublicApi(db);
