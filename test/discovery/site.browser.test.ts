import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkStatus } from "../../api/health/checkStatus";
import { createHealthSampler } from "../../api/health/createHealthSampler";
import { requiredSamples } from "../../api/health/readAvailability";
import { routeList } from "../../api/routes/routeTable";
import { type Backend, openBackend } from "../access/support";
import { testManifest } from "../support/devnet";
import { discoveryApp, grown, operatorTotals } from "./support";

const manifest = testManifest();
const outputDir = join(process.cwd(), "test-output");
/** Flags that work on this machine: no sandbox or GPU, no network of the browser's own. */
const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const hourMs = 3_600_000;

let backend: Backend;
let app: ReturnType<typeof discoveryApp>["app"];
let server: ServerType;
let origin: string;
let profile: string;
let browser: BrowserContext;

/** A page that records every console error and uncaught exception. */
async function openPage(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${origin}${path}`, { waitUntil: "load" });
  return { page, errors };
}

beforeAll(async () => {
  backend = await openBackend("pglite");
  const samples = requiredSamples("24h", 3600);
  let now = Date.now() - samples * hourMs;
  const clock = () => new Date(now);
  ({ app } = discoveryApp(manifest, backend, {}, { healthSampleIntervalSeconds: 3600 }));
  // A day of hourly samples (by the sampler's clock), so the 24 h bars are drawn.
  const status = { ...(await import("../support/app")).testAppDeps(manifest, backend.indexDb).status, appStore: backend.store };
  const sampler = createHealthSampler({
    db: backend.store.db,
    check: () => checkStatus(status),
    gatewayConfigured: false,
    intervalSeconds: 3600,
    clock,
  });
  for (let i = 0; i <= samples; i++) {
    now += hourMs;
    await sampler.sampleOnce();
  }
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), "svc-chromium-"));
  browser = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", headless: true, args: chromiumFlags });
  mkdirSync(outputDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await backend?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe("the site and the docs page in a real browser (Debian's chromium)", () => {
  test("default: the site loads without a console error (and without a wallet extension), lists the plans, audits a devnet fixture and draws the status charts; its events arrive as counters", async () => {
    const before = await operatorTotals(app);
    const { page, errors } = await openPage("/");
    await page.locator("#plans-table table").waitFor();
    expect(await page.locator("#plans-table tbody tr").count()).toBe(4);
    expect(await page.locator("#plans-table").textContent()).toContain("STARTER");

    const fixture = manifest.contracts.plainToken as string;
    const expected = (await (await app.request(`/v1/demo/audit/${fixture}`)).json()) as { capabilityRating: string };
    await page.getByLabel("Contract address on Base").fill(fixture);
    await page.getByRole("button", { name: "Audit" }).click();
    await page.locator("#demo-facts").waitFor();
    expect(await page.locator("#demo-facts").textContent()).toContain(expected.capabilityRating);

    await page.locator("#status-charts figure.series").first().waitFor();
    expect(await page.locator("#status-charts figure.series").count()).toBe(4);
    // legacyCore's 24 h window holds enough samples: a bar; the 30 d window does not: said so.
    const core = page.locator("#status-charts svg.chart").first();
    expect(await core.locator("rect.bar").count()).toBeGreaterThanOrEqual(1);
    expect(await core.getAttribute("aria-label")).toMatch(/^legacyCore: 24h [\d.]+%, 7d insufficient samples, 30d insufficient samples$/);

    await page.screenshot({ path: join(outputDir, "site.png"), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    await expect
      .poll(async () => grown(before, await operatorTotals(app)), { timeout: 10_000 })
      .toMatchObject({
        "EVENT pageViewed home": 1,
        "EVENT ctaClicked home runDemoAudit": 1,
        "SERVED GET /v1/demo/audit/{address} VIA FREE": 2,
      });
  }, 60_000);

  test("behavior: both pages are served under a strict Content-Security-Policy, with every script and style sheet from this origin", async () => {
    for (const path of ["/", "/docs"]) {
      const res = await app.request(path);
      expect(res.headers.get("content-security-policy"), path).toMatch(/default-src 'self'; script-src 'self'; style-src 'self'/);
      const html = await res.text();
      expect(html, path).not.toMatch(/<script(?![^>]*\bsrc=)|<style/);
      const assets = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]+)"/g)]
        .map((m) => m[1] as string)
        .filter((a) => a !== "data:,");
      expect(assets.length, path).toBeGreaterThan(0);
      for (const asset of assets) {
        expect(asset, path).toMatch(/^\/(site|docs)\//);
        expect((await app.request(asset)).status, asset).toBe(200);
      }
    }
    // The site is small: its page, script and style sheet together under 32 KiB.
    let bytes = 0;
    for (const path of ["/", "/site/site.js", "/site/site.css"]) bytes += (await (await app.request(path)).arrayBuffer()).byteLength;
    expect(bytes).toBeLessThan(32 * 1024);
    expect((await app.request("/site/../package.json")).status).toBe(404);
    expect((await app.request("/docs/package.json")).status).toBe(404);
  });

  test("behavior: the docs page (Swagger UI from our origin) lists every documented route, with no console error", async () => {
    const before = await operatorTotals(app);
    const { page, errors } = await openPage("/docs");
    await page.locator(".opblock").first().waitFor({ timeout: 30_000 });
    const listed = await page
      .locator(".opblock")
      .evaluateAll((blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector(".opblock-summary-method")?.textContent?.trim()} ${b.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
        ),
      );
    const documented = routeList.filter((r) => !r.hidden).map((r) => r.name);
    expect(new Set(listed)).toEqual(new Set(documented));
    await page.screenshot({ path: join(outputDir, "docs.png"), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    await expect
      .poll(async () => grown(before, await operatorTotals(app)), { timeout: 10_000 })
      .toMatchObject({ "EVENT pageViewed docs": 1 });
  }, 60_000);
});
