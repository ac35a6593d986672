import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "hono";
import { z } from "zod";
import type { DemoSample } from "../capability/demoSamples";
import type { ServiceOrigins } from "../config";
import { ApiError } from "../errors";
import { freeKeyMessage } from "../keys/intentMessage";
import { defineRoute } from "./defineRoute";
import type { MountRoute } from "./MountRoute";

const siteDirectory = fileURLToPath(new URL("../../site", import.meta.url));
const swaggerUiDirectory = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** Everything from this origin, no inline script or style element: the pages work offline and behind this policy. */
const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const fileParam = { params: z.object({ file: z.string().max(64) }) };

/**
 * A page or file of the site: public, left out of the OpenAPI document, and not rate limited (a few
 * bytes from memory, cacheable); an unknown file is 404.
 */
const staticRoute = {
  method: "get",
  access: "public",
  rateLimited: false,
  hidden: true,
  responses: { 200: { description: "HTML, a script or a style sheet" } },
  errors: ["CREDENTIAL_IN_QUERY", "NOT_FOUND"],
} as const;

export const site = defineRoute({
  ...staticRoute,
  group: "Site",
  path: "/",
  summary: "The site: what the service does, plans, a demo audit, status, and how to connect",
});

export const siteAsset = defineRoute({
  ...staticRoute,
  group: "Site",
  path: "/site/{file}",
  summary: "The site's script and style sheet",
  request: fileParam,
});

export const docs = defineRoute({
  ...staticRoute,
  group: "Site",
  path: "/docs",
  summary: "Interactive API documentation of the OpenAPI document (Swagger UI, served from this origin)",
});

export const docsAsset = defineRoute({
  ...staticRoute,
  group: "Site",
  path: "/docs/{file}",
  summary: "The docs page's script and style sheets (its own and swagger-ui-dist's)",
  request: fileParam,
});

type StaticFile = { body: Uint8Array; type: string };

const read = new Map<string, StaticFile>();

/** A static file's bytes, read once per process (the Swagger UI bundle is 1.5 MB; every app mounts it). */
function file(path: string, type: string): StaticFile {
  const known = read.get(path);
  if (known) return known;
  const loaded = { body: readFileSync(path), type };
  read.set(path, loaded);
  return loaded;
}
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The demo's allowlist as list items: a button that fills in the address, and the address. */
function sampleItems(samples: readonly DemoSample[]): string {
  return samples
    .map(
      ({ name, address }) =>
        `<li><button type="button" class="link" data-address="${escapeHtml(address)}">${escapeHtml(name)}</button> <code>${escapeHtml(address)}</code></li>`,
    )
    .join("");
}

/** The site's page with the origin, the demo's allowlist and an example of the exact free-key message filled in. */
function homePage(origin: string, samples: readonly DemoSample[]): StaticFile {
  const example = freeKeyMessage({
    origin,
    intentId: "int_000000000000000000000000",
    wallet: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
    expiresAt: new Date("2026-01-01T00:15:00.000Z"),
  });
  const html = readFileSync(join(siteDirectory, "index.html"), "utf8")
    .replaceAll("{{origin}}", escapeHtml(origin))
    .replace("{{demoSamples}}", sampleItems(samples))
    .replace("{{freeKeyMessage}}", escapeHtml(example));
  return { body: new TextEncoder().encode(html), type: "text/html; charset=utf-8" };
}

/**
 * The site at `/` (and its script and style sheet under /site/) and the interactive API docs at
 * /docs (swagger-ui-dist's bundle, served from this origin), read once into memory.
 */
export function mountSiteRoutes(mount: MountRoute, deps: { origins: ServiceOrigins; samples: readonly DemoSample[] }) {
  const home = homePage(deps.origins.public, deps.samples);
  const docsPage = file(join(siteDirectory, "docs.html"), "text/html; charset=utf-8");
  const siteAssets: Record<string, StaticFile> = {
    "site.js": file(join(siteDirectory, "site.js"), "text/javascript; charset=utf-8"),
    "site.css": file(join(siteDirectory, "site.css"), "text/css; charset=utf-8"),
  };
  const docsAssets: Record<string, StaticFile> = {
    "docs.js": file(join(siteDirectory, "docs.js"), "text/javascript; charset=utf-8"),
    "docs.css": file(join(siteDirectory, "docs.css"), "text/css; charset=utf-8"),
    "swagger-ui-bundle.js": file(join(swaggerUiDirectory, "swagger-ui-bundle.js"), "text/javascript; charset=utf-8"),
    "swagger-ui.css": file(join(swaggerUiDirectory, "swagger-ui.css"), "text/css; charset=utf-8"),
  };
  const send = (c: Context, f: StaticFile | undefined) => {
    if (!f) throw new ApiError("NOT_FOUND", `no route ${c.req.method} ${c.req.path}`);
    const headers: Record<string, string> = {
      "Content-Type": f.type,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=300",
      ...(f.type.startsWith("text/html") ? { "Content-Security-Policy": contentSecurityPolicy } : {}),
    };
    return c.body(f.body as Uint8Array<ArrayBuffer>, 200, headers);
  };
  mount(site, (c) => send(c, home));
  mount(docs, (c) => send(c, docsPage));
  mount(siteAsset, (c) =>
    send(c, Object.hasOwn(siteAssets, c.req.valid("param").file) ? siteAssets[c.req.valid("param").file] : undefined),
  );
  mount(docsAsset, (c) =>
    send(c, Object.hasOwn(docsAssets, c.req.valid("param").file) ? docsAssets[c.req.valid("param").file] : undefined),
  );
}
