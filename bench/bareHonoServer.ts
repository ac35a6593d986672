/**
 * The ceiling for bench/listener.bench.ts: a bare Hono app on `@hono/node-server` answering a constant,
 * in a process of its own. Usage: `tsx bench/bareHonoServer.ts PORT`; prints "listening" once bound.
 */

import { serve } from "@hono/node-server";
import { Hono } from "hono";

const port = Number(process.argv[2]);
const app = new Hono().get("/", (c) => c.text("ok"));
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => console.log("listening"));
process.on("SIGINT", () => process.exit(0));
