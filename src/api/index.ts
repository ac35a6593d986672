import { db } from "ponder:api";
import { createServerApp } from "../../api/server";

export default createServerApp(db);
