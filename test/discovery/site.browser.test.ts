import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoSamples } from "../../api/capability/demoSamples";
import { checkStatus } from "../../api/health/checkStatus";
import { createHealthSampler } from "../../api/health/createHealthSampler";
import { requiredSamples } from "../../api/health/readAvailability";
import { routeGroups } from "../../api/routes/routeGroups";
import { routeList } from "../../api/routes/routeList";
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

/** Takes a health sample at each of `hoursAgo` (by the sampler's clock, hours before now). */
let sampleAt: (hoursAgo: number[]) => Promise<void>;

beforeAll(async () => {
  backend = await openBackend("pglite");
  let now = Date.now();
  ({ app } = discoveryApp(manifest, backend, {}, { healthSampleIntervalSeconds: 3600 }));
  const status = { ...(await import("../support/app")).testAppParameters(manifest, backend.indexDb).status, appStore: backend.store };
  const sampler = createHealthSampler({
    db: backend.store.db,
    check: () => checkStatus(status),
    gatewayConfigured: false,
    intervalSeconds: 3600,
    clock: () => new Date(now),
  });
  sampleAt = async (hoursAgo) => {
    for (const h of hoursAgo) {
      now = Date.now() - h * hourMs;
      await sampler.sampleOnce();
    }
  };
  // A fresh start: the last three hours sampled, one sample an hour.
  await sampleAt([2, 1, 0]);
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
  test("behavior: on a fresh start each status box says how long samples have been collected and when its first figure is shown", async () => {
    const { page, errors } = await openPage("/");
    await page.locator("#status-charts figure.series").first().waitFor();
    const boxes = page.locator("#status-charts figure.series");
    // Three hourly samples: the 24 h window needs 22, so 19 more hours; 7 d needs 152 (149 h), 30 d 648 (645 h).
    const core = boxes.filter({ hasText: "legacyCore" });
    expect(await core.locator(".note").textContent()).toMatch(
      /^Samples collected for [23] h( \d+ min)?\. The 24 h figure is shown in about 19 h \(.+\)\.$/,
    );
    expect(await core.locator("svg.chart").getAttribute("aria-label")).toBe(
      "legacyCore: 24h shown in about 19 h, 7d shown in about 6 d, 30d shown in about 27 d",
    );
    // The gateway is not configured here: it never will be measured, and says so.
    expect(await boxes.filter({ hasText: "gateway" }).locator(".note").textContent()).toBe(
      "Not configured on this deployment, so not measured.",
    );
    expect(await page.locator("#status-interval").textContent()).toBe("every hour");
    expect(await page.locator("#status").textContent()).not.toMatch(/insufficient|\d+\/\d+/i);
    await page.screenshot({ path: join(outputDir, "site-fresh-start.png"), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  test.each([375, 1280])(
    "behavior: at %i px wide the site has no horizontal overflow, its text column is bounded and centred",
    async (width) => {
      const { page, errors } = await openPage("/");
      await page.setViewportSize({ width, height: 900 });
      await page.locator("#plans-table .plan").first().waitFor();
      await page.locator("#status-charts figure.series").first().waitFor();
      const layout = await page.locator("html").evaluate((root) => {
        const box = (selector: string) => {
          const rect = root.querySelector(selector)?.getBoundingClientRect();
          return { left: rect?.left ?? 0, right: rect?.right ?? 0, width: rect?.width ?? 0 };
        };
        return {
          scrollWidth: root.scrollWidth,
          clientWidth: root.clientWidth,
          main: box("main"),
          paragraph: box("#free-key > p"),
          // A code block that scrolls inside itself is overflow too.
          codeOverflow: [...root.querySelectorAll("pre")].filter((p) => p.scrollWidth > p.clientWidth).length,
          // Anything past the window's right edge, named by its tag, id and class.
          beyond: [...root.querySelectorAll("main *")]
            .filter((e) => e.getBoundingClientRect().right > root.clientWidth)
            .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute("class") ?? ""}`),
        };
      });
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.codeOverflow).toBe(0);
      expect(layout.beyond).toEqual([]);
      // Text never runs to the window's edge: a margin on each side, and lines of at most about 80 characters.
      expect(layout.paragraph.left).toBeGreaterThanOrEqual(16);
      expect(layout.clientWidth - layout.paragraph.right).toBeGreaterThanOrEqual(16);
      expect(layout.paragraph.width).toBeLessThanOrEqual(44 * 16);
      if (width === 1280) {
        // The frame is bounded and centred: equal margins, wider than the text column.
        expect(layout.main.width).toBeLessThanOrEqual(68 * 16);
        expect(Math.abs(layout.main.left - (layout.clientWidth - layout.main.right))).toBeLessThanOrEqual(1);
      }
      await page.screenshot({ path: join(outputDir, `site-${width}.png`), fullPage: true });
      await page.close();
      expect(errors).toEqual([]);
    },
    60_000,
  );

  test("default: the site loads without a console error (and without a wallet extension), lists the plans, audits a devnet fixture and draws the status charts; its events arrive as counters", async () => {
    // A day of hourly samples, so the 24 h bars are drawn (the fresh start's three hours are already there).
    await sampleAt(Array.from({ length: requiredSamples("24h", 3600) + 1 }, (_, i) => i));
    const before = await operatorTotals(app);
    const { page, errors } = await openPage("/");
    await page.locator("#plans-table .plan").first().waitFor();
    expect(await page.locator("#plans-table .plan").count()).toBe(4);
    expect(await page.locator("#plans-table").textContent()).toContain("STARTER");

    const fixture = manifest.contracts.plainToken as string;
    const expected = (await (await app.request(`/v1/demo/audit/${fixture}`)).json()) as { capabilityRating: string };
    await page.getByLabel("Contract address on Base").fill(fixture);
    await page.getByRole("button", { name: "Audit" }).click();
    await page.locator("#demo-facts").waitFor();
    expect(await page.locator("#demo-facts").textContent()).toContain(expected.capabilityRating);

    await page.locator("#status-charts figure.series").first().waitFor();
    expect(await page.locator("#status-charts figure.series").count()).toBe(4);
    // legacyCore's 24 h window holds enough samples (23): a bar; the 7 and 30 d windows say when theirs come.
    const core = page.locator("#status-charts svg.chart").first();
    expect(await core.locator("rect.bar").count()).toBeGreaterThanOrEqual(1);
    expect(await core.getAttribute("aria-label")).toMatch(/^legacyCore: 24h [\d.]+%, 7d shown in about 5 d, 30d shown in about 26 d$/);
    expect(await page.locator("#status-charts figure.series").first().locator(".note").textContent()).toMatch(
      /^Samples collected for 2[23] h( \d+ min)?\. The 7 d figure is shown in about 5 d \d+ h /,
    );
    await page.locator("#status").screenshot({ path: join(outputDir, "site-status-after-a-day.png") });
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

  test("behavior: the demo's allowlist is shown before any audit; picking a sample fills in its address, which is answered in full", async () => {
    const { page, errors } = await openPage("/");
    const list = page.locator("#demo-samples");
    expect(await list.isVisible()).toBe(true);
    const shown = await list
      .locator("li")
      .evaluateAll((items) => items.map((li) => [li.querySelector("button")?.textContent, li.querySelector("code")?.textContent]));
    expect(shown).toEqual(demoSamples(undefined, manifest).map((s) => [s.name, s.address]));
    await list.getByRole("button", { name: "plainToken", exact: true }).click();
    expect(await page.getByLabel("Contract address on Base").inputValue()).toBe(manifest.contracts.plainToken);
    await page.getByRole("button", { name: "Audit" }).click();
    await page.locator("#demo-facts").waitFor();
    expect(await page.locator("#demo-facts").textContent()).toContain("Full evidence (published sample)");
    await page.locator("#demo").screenshot({ path: join(outputDir, "site-demo-samples.png") });
    await page.close();
    expect(errors).toEqual([]);
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
    // Grouped by tag, in the groups' order (not one "default" section).
    const sections = await page.locator(".opblock-tag").evaluateAll((tags) => tags.map((t) => t.getAttribute("data-tag")));
    const groups = new Set(routeList.filter((r) => !r.hidden).map((r) => r.group));
    expect(sections).toEqual(Object.keys(routeGroups).filter((g) => groups.has(g as keyof typeof routeGroups)));
    expect(sections).toContain("Keys and payments");
    await page.screenshot({ path: join(outputDir, "docs.png"), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    await expect
      .poll(async () => grown(before, await operatorTotals(app)), { timeout: 10_000 })
      .toMatchObject({ "EVENT pageViewed docs": 1 });
  }, 60_000);
});
