// The site's behaviour: plans, the demo audit, the status charts, and identifier-free product events.
const page = "home";

function sendEvent(body) {
  fetch("/v1/events", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  }).catch(() => {});
}

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of [].concat(children)) node.append(child);
  return node;
}

async function getJson(path) {
  const res = await fetch(path, { headers: { accept: "application/json" } });
  return { status: res.status, body: await res.json() };
}

async function showPlans() {
  const target = document.getElementById("plans-table");
  try {
    const { body } = await getJson("/v1/plans");
    const rows = body.plans.map((plan) => {
      const price =
        plan.prices.length === 0 ? "free (one per wallet)" : plan.prices.map((p) => `$${p.priceUsd} / ${p.durationDays} days`).join(", ");
      const daily = plan.entitlements.dailyLimit === null ? "" : `, ${plan.entitlements.dailyLimit} a day`;
      return el("tr", {}, [
        el("th", { scope: "row" }, plan.tier),
        el("td", {}, price),
        el("td", {}, `${plan.entitlements.creditsPerCycle.toLocaleString("en")} per ${plan.entitlements.cycleDays} days${daily}`),
        el("td", {}, `${plan.entitlements.rateLimitPerMinute} / min`),
      ]);
    });
    const head = el(
      "tr",
      {},
      ["Tier", "Price", "Credits", "Rate"].map((h) => el("th", { scope: "col" }, h)),
    );
    const table = el("table", {}, [el("caption", {}, "Plans and prices (USD)"), el("thead", {}, head), el("tbody", {}, rows)]);
    const perCall = body.x402.map((r) => el("li", {}, [el("code", {}, r.route), ` ${r.priceUsd} USDC`]));
    target.replaceChildren(table, el("h3", {}, "x402 price per call"), el("ul", {}, perCall));
  } catch {
    target.replaceChildren(el("p", {}, "Plans could not be loaded; see /v1/plans."));
  }
}

async function runDemo(event) {
  event.preventDefault();
  const input = document.getElementById("demo-address");
  const out = document.getElementById("demo-result");
  const address = input.value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    input.setAttribute("aria-invalid", "true");
    out.replaceChildren(el("p", { class: "error" }, "Enter 0x followed by 40 hex digits."));
    input.focus();
    return;
  }
  input.removeAttribute("aria-invalid");
  out.replaceChildren(el("p", {}, "Auditing…"));
  try {
    const { status, body } = await getJson(`/v1/demo/audit/${address}`);
    if (status !== 200) {
      out.replaceChildren(el("p", { class: "error" }, `${body.error}: ${body.message}`));
      return;
    }
    const facts = [
      ["Rating", body.capabilityRating],
      ["Coverage index", body.capabilityScore ?? "n/a (preview or unverified)"],
      ["Evidence", body.evidenceStatus],
      ["Kind", body.status === "PREVIEW" ? "Preview (not a published sample)" : "Full evidence (published sample)"],
    ];
    const list = el(
      "dl",
      { id: "demo-facts" },
      facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]),
    );
    out.replaceChildren(list, el("p", { class: "hint" }, "Not a safety guarantee: observations are evidence for your policy."));
  } catch {
    out.replaceChildren(el("p", { class: "error" }, "The demo could not be reached."));
  }
}

const svgNs = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(svgNs, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One bar per window: its height is the availability; a window without enough samples says so. */
function seriesChart(series) {
  const width = 300;
  const height = 120;
  const bar = 70;
  const label = series.windows
    .map((w) => (w.status === "MEASURED" ? `${w.window} ${w.availabilityPercent}%` : `${w.window} insufficient samples`))
    .join(", ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", "aria-label": `${series.series}: ${label}` });
  series.windows.forEach((w, i) => {
    const x = 20 + i * (bar + 25);
    chart.append(svg("rect", { x, y: 10, width: bar, height: 80, class: "track" }));
    if (w.status === "MEASURED") {
      const h = Math.max(1, (w.availabilityPercent / 100) * 80);
      chart.append(svg("rect", { x, y: 90 - h, width: bar, height: h, class: "bar" }));
      // Readable on the bar when it is tall, on the track when it is short.
      const onBar = w.availabilityPercent >= 50;
      chart.append(svg("text", { x: x + bar / 2, y: 55, class: onBar ? "value" : "value-on-track" }, `${w.availabilityPercent}%`));
    } else {
      chart.append(svg("text", { x: x + bar / 2, y: 48, class: "na" }, "insufficient"));
      chart.append(svg("text", { x: x + bar / 2, y: 62, class: "na" }, `${w.samples}/${w.requiredSamples}`));
    }
    chart.append(svg("text", { x: x + bar / 2, y: 108, class: "window" }, w.window));
  });
  return el("figure", { class: "series" }, [chart, el("figcaption", {}, [el("strong", {}, series.series), ` ${series.description}`])]);
}

async function showStatus() {
  const now = document.getElementById("status-now");
  const charts = document.getElementById("status-charts");
  try {
    const { body } = await getJson("/v1/status");
    now.textContent = `Now: ${body.status} (RPC trust ${body.rpc.trustLevel}, index lag ${body.index.lagBlocks === null ? "unknown" : `${body.index.lagBlocks} blocks`}).`;
    if (body.history) charts.replaceChildren(...body.history.series.map(seriesChart));
    else charts.replaceChildren(el("p", {}, "Availability history cannot be read right now."));
  } catch {
    now.textContent = "Status could not be loaded.";
  }
}

document.addEventListener("DOMContentLoaded", () => {
  sendEvent({ event: "pageViewed", page });
  for (const node of document.querySelectorAll("[data-cta]")) {
    node.addEventListener("click", () => sendEvent({ event: "ctaClicked", page, cta: node.dataset.cta }));
  }
  document.getElementById("demo-form").addEventListener("submit", runDemo);
  document.getElementById("demo-example").addEventListener("click", () => {
    document.getElementById("demo-address").value = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  });
  showPlans();
  showStatus();
});
