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

const usd = (amount) => `$${Number(amount).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function showPlans() {
  const target = document.getElementById("plans-table");
  try {
    const { body } = await getJson("/v1/plans");
    const cards = body.plans.map((plan) => {
      // The shortest term in large type, the longer ones below it.
      const [first, ...longer] = plan.prices;
      const price = first ? [usd(first.priceUsd), el("small", {}, ` / ${first.durationDays} days`)] : "Free";
      const more = !first
        ? "No payment needed"
        : longer.length > 0
          ? `or ${longer.map((p) => `${usd(p.priceUsd)} / ${p.durationDays} days`).join(", ")}`
          : "";
      const { creditsPerCycle, cycleDays, dailyLimit, rateLimitPerMinute } = plan.entitlements;
      const facts = [
        `${creditsPerCycle.toLocaleString("en")} credits per ${cycleDays} days`,
        ...(dailyLimit === null ? [] : [`${dailyLimit} credits a day`]),
        `${rateLimitPerMinute.toLocaleString("en")} requests / min`,
        ...(plan.prices.length === 0 ? ["One per wallet, claimed by signature"] : []),
      ];
      return el("article", { class: "card plan" }, [
        el("h3", {}, plan.tier),
        el("p", { class: "price" }, price),
        el("p", { class: "more" }, more),
        el(
          "ul",
          {},
          facts.map((f) => el("li", {}, f)),
        ),
      ]);
    });
    const perCall = body.x402.map((r) => el("li", {}, [el("code", {}, r.route), el("span", {}, `${r.priceUsd} USDC`)]));
    target.replaceChildren(
      el("div", { class: "grid plans" }, cards),
      el("h3", {}, "x402 price per call"),
      el("ul", { class: "per-call" }, perCall),
    );
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

/** "3 h 10 min", "6 d 5 h": a span to the minute, in its two largest units. */
function duration(ms) {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return hours % 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${hours / 24} d`;
}
/** "19 h", "27 d": a span in its largest unit, rounded (what fits in a bar). */
function shortDuration(ms) {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  return minutes < 24 * 60 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / (24 * 60))} d`;
}
const when = (iso) => new Date(iso).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const windowName = { "24h": "24 h", "7d": "7 d", "30d": "30 d" };

/** What a window without its figure shows: when it comes, or why it never does. */
function pending(series, w, checkedAt) {
  if (series.latestState === "NOT_CONFIGURED") return { bar: ["not", "configured"], label: "not configured" };
  if (w.earliestMeasuredAt === null) return { bar: ["no", "samples yet"], label: "no samples yet" };
  const wait = shortDuration(Date.parse(w.earliestMeasuredAt) - checkedAt);
  return { bar: ["shown in", wait], label: `shown in about ${wait}` };
}

/** The box's sentence while a window has no figure yet: how long samples have been collected and when the first figure comes. */
function samplingNote(history, series, checkedAt) {
  if (series.latestState === "NOT_CONFIGURED") return "Not configured on this deployment, so not measured.";
  const next = series.windows.find((w) => w.status !== "MEASURED");
  if (!next) return null;
  if (history.samplingSince === null || next.earliestMeasuredAt === null)
    return "No sample recorded yet: the first is taken when the service starts.";
  const collected = duration(checkedAt - Date.parse(history.samplingSince));
  const wait = duration(Date.parse(next.earliestMeasuredAt) - checkedAt);
  return `Samples collected for ${collected}. The ${windowName[next.window]} figure is shown in about ${wait} (${when(next.earliestMeasuredAt)}).`;
}

/** One bar per window: its height is the availability; a window without enough samples says when it comes. */
function seriesChart(history, series, checkedAt) {
  const width = 300;
  const height = 120;
  const bar = 70;
  const label = series.windows
    .map((w) => (w.status === "MEASURED" ? `${w.window} ${w.availabilityPercent}%` : `${w.window} ${pending(series, w, checkedAt).label}`))
    .join(", ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", "aria-label": `${series.series}: ${label}` });
  series.windows.forEach((w, i) => {
    const x = 20 + i * (bar + 25);
    chart.append(svg("rect", { x, y: 10, width: bar, height: 80, class: "track", rx: 3 }));
    if (w.status === "MEASURED") {
      const h = Math.max(1, (w.availabilityPercent / 100) * 80);
      chart.append(svg("rect", { x, y: 90 - h, width: bar, height: h, class: "bar", rx: 3 }));
      // Readable on the bar when it is tall, on the track when it is short.
      const onBar = w.availabilityPercent >= 50;
      chart.append(svg("text", { x: x + bar / 2, y: 55, class: onBar ? "value" : "value-on-track" }, `${w.availabilityPercent}%`));
    } else {
      const [first, second] = pending(series, w, checkedAt).bar;
      chart.append(svg("text", { x: x + bar / 2, y: 47, class: "na" }, first));
      chart.append(svg("text", { x: x + bar / 2, y: 62, class: "na" }, second));
    }
    chart.append(svg("text", { x: x + bar / 2, y: 108, class: "window" }, windowName[w.window]));
  });
  const note = samplingNote(history, series, checkedAt);
  return el("figure", { class: "series card" }, [
    el("figcaption", {}, [el("strong", {}, series.series), el("p", {}, series.description)]),
    chart,
    ...(note ? [el("p", { class: "note" }, note)] : []),
  ]);
}

/** "every minute", "every hour", "every 30 seconds". */
function every(seconds) {
  if (seconds === 60) return "every minute";
  if (seconds === 3600) return "every hour";
  return seconds % 60 === 0 ? `every ${seconds / 60} minutes` : `every ${seconds} seconds`;
}

async function showStatus() {
  const now = document.getElementById("status-now");
  const charts = document.getElementById("status-charts");
  try {
    const { body } = await getJson("/v1/status");
    const lag = body.index.lagBlocks === null ? "unknown" : `${body.index.lagBlocks} blocks`;
    now.replaceChildren(
      "Now: ",
      el("span", { class: `badge ${body.status}` }, body.status),
      ` RPC trust ${body.rpc.trustLevel}, index lag ${lag}.`,
    );
    const history = body.history;
    if (history) {
      // Spans are measured on the server's clock, not this browser's.
      const checkedAt = Date.parse(body.checkedAt);
      document.getElementById("status-interval").textContent = every(history.sampleIntervalSeconds);
      charts.replaceChildren(...history.series.map((series) => seriesChart(history, series, checkedAt)));
    } else charts.replaceChildren(el("p", {}, "Availability history cannot be read right now."));
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
  // The allowlist, listed by the server: a sample's button fills in its address.
  for (const sample of document.querySelectorAll("#demo-samples [data-address]")) {
    sample.addEventListener("click", () => {
      const input = document.getElementById("demo-address");
      input.value = sample.dataset.address;
      input.focus();
    });
  }
  showPlans();
  showStatus();
});
