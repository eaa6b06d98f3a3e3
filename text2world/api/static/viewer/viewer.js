// text2world results viewer: a hash-routed page over the service's /v1/runs JSON.
// No framework and no build step: the page must work offline, from the package alone.
"use strict";

const METRIC_LABELS = {
  executable: "Exec", similarity: "Sim", f1_predicates: "F1 pred", f1_parameters: "F1 param",
  f1_preconditions: "F1 precond", f1_effects: "F1 eff", f1_types: "F1 types",
  accuracy: "Accuracy", success: "Success", plan_validity: "Plan valid", gold_plan_acceptance: "Gold plan acc.", applicability_f1: "Applic. F1",
  transition_accuracy: "Trans. acc.", exact_legal: "Exact (legal)", illegal_accuracy: "Illegal acc.",
  state_f1: "State F1", dynamic_f1: "Dynamic F1", static_f1: "Static F1", false_positive_rate: "False pos.",
  false_negative_rate: "False neg.", step_accuracy: "Step acc.", declared_done: "Said done",
  state_accuracy: "State acc.", cost_ratio: "Cost / opt",
};
const STANDARD = ["executable", "similarity", "f1_predicates", "f1_parameters",
  "f1_preconditions", "f1_effects"];
const COLORS = ["#2457c5", "#c62828", "#1a7f37", "#9a6700", "#7b3fb3", "#00838f", "#d84315",
  "#5d6d7e", "#ad1457", "#2e7d32", "#6d4c41"];
const app = document.getElementById("app");
const crumbs = document.getElementById("crumbs");
const tooltip = document.getElementById("tooltip");
const state = {
  lbSort: { key: "model", dir: 1 }, lbFilter: "", lbSelected: new Set(),
  lbColumns: null,
  runMode: null, runSort: { key: "item", dir: 1 }, runFilter: "", cursor: 0, diffOnly: false,
};
const cache = new Map(); // url -> promise of JSON (runs do not change while they are viewed)
let keyHandler = null;

// ---------------------------------------------------------------------------------- helpers

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, c => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function pct(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(1); }
function label(metric) { return Object.hasOwn(METRIC_LABELS, metric) ? METRIC_LABELS[metric] : String(metric).replace(/_/g, " "); }
function yesno(v) {
  return v === null || v === undefined ? "–" : v ? '<span class="yes">yes</span>' : '<span class="no">no</span>';
}
function numberText(v) {
  // A value of unknown scale (a kind's headline): as it is, three decimals at most.
  return typeof v !== "number" ? "–" : Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
}
function isScalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }
function valueText(v) {
  // A logged value of a kind the viewer has no page for, escaped: yes/no, a number, text.
  return typeof v === "boolean" ? yesno(v) : typeof v === "number" ? numberText(v) : isScalar(v) ? esc(v ?? "–") : esc(JSON.stringify(v));
}
function money(v) { return v === null || v === undefined ? "–" : "$" + Number(v).toFixed(4); }
function runLink(id) { return "#/run/" + encodeURIComponent(id); }
function itemLink(run, item, round) {
  return runLink(run) + "/item/" + encodeURIComponent(item) + (round === undefined ? "" : "/round/" + round);
}
// A bundle (t2w view --bundle) has no server: each answer is a script data/<key>.js that
// calls __t2wData(url, answer); scripts load from file:// where fetch() cannot.
const BUNDLE = window.T2W_BUNDLE === true;
function bundleKey(url) {
  // FNV-1a, two 32-bit variants: the same function names the files in text2world/api/bundle.py.
  let a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
  for (const byte of new TextEncoder().encode(url)) {
    a = Math.imul(a ^ byte, 0x01000193) >>> 0;
    b = Math.imul(b ^ byte, 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
const bundleWaiting = new Map();
window.__t2wData = (url, body) => { const done = bundleWaiting.get(url); if (done) { bundleWaiting.delete(url); done(body); } };
function bundleJSON(url) {
  return new Promise((resolve, reject) => {
    bundleWaiting.set(url, body => body && body.error ? reject(new Error(body.error.message)) : resolve(body));
    const script = document.createElement("script");
    script.src = "data/" + bundleKey(url) + ".js";
    script.onerror = () => { bundleWaiting.delete(url); reject(new Error(`not in this bundle: ${url} (make the bundle with the runs you need)`)); };
    document.head.appendChild(script);
    script.onload = () => script.remove();
  });
}
async function getJSON(url, fresh) {
  if (!fresh && cache.has(url)) return cache.get(url);
  if (BUNDLE) { const promise = bundleJSON(url); cache.set(url, promise); return promise; }
  const promise = fetch(url).then(async response => {
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const message = body && body.error ? body.error.message : response.status + " " + response.statusText;
      throw new Error(message);
    }
    return body;
  });
  cache.set(url, promise);
  promise.catch(() => cache.delete(url));
  return promise;
}
async function allRuns() {
  let items = [], offset = 0, runsDir = "";
  for (;;) {
    const page = await getJSON(`/v1/runs?limit=500&offset=${offset}`, true);
    items = items.concat(page.items); runsDir = page.runs_dir;
    if (page.next_offset === null) break;
    offset = page.next_offset;
  }
  return { items, runsDir };
}
function setCrumbs(parts) {
  crumbs.innerHTML = parts.map(([text, href]) => href ? `<a href="${href}">${esc(text)}</a>` : `<span>${esc(text)}</span>`).join(" / ");
}
function ready(route) {
  document.body.dataset.ready = route;
  window.__t2wReady = { route, at: performance.now() };
}
function showError(err) {
  app.innerHTML = `<div class="error-box">${esc(err.message || err)}</div>`;
  ready("error");
}
function showTip(event, text) {
  tooltip.textContent = text; tooltip.hidden = false;
  tooltip.style.left = (event.clientX + 12) + "px"; tooltip.style.top = (event.clientY + 12) + "px";
}
function hideTip() { tooltip.hidden = true; }
function bindTips(root) {
  root.querySelectorAll("[data-tip]").forEach(node => {
    node.addEventListener("mousemove", e => showTip(e, node.dataset.tip));
    node.addEventListener("mouseleave", hideTip);
  });
}
function metricsOf(rows) {
  const keys = [];
  for (const row of rows || []) for (const [k, v] of Object.entries(row)) {
    if (k !== "round" && k !== "items" && (typeof v === "number" || v === null) && !keys.includes(k)) keys.push(k);
  }
  return keys;
}
function sortRows(rows, sort, value) {
  return rows.slice().sort((a, b) => {
    const x = value(a, sort.key), y = value(b, sort.key);
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * sort.dir;
  });
}
function sortHeader(text, key, sort, cls = "") {
  const arrow = sort.key === key ? (sort.dir > 0 ? " ▲" : " ▼") : "";
  return `<th class="sortable ${cls}" data-sort="${esc(key)}">${esc(text)}<span class="arrow">${arrow}</span></th>`;
}
function bindSort(root, sort, rerender) {
  root.querySelectorAll("th[data-sort]").forEach(th => th.addEventListener("click", () => {
    const key = th.dataset.sort;
    if (sort.key === key) sort.dir = -sort.dir; else { sort.key = key; sort.dir = key === "model" || key === "item" ? 1 : -1; }
    rerender();
  }));
}

// ---------------------------------------------------------------------------------- charts (SVG)

// How a round was asked for, in words (a run's log says generate / correct).
const ROUND_KINDS = { generate: "first answer", correct: "correction round" };
// Series that coincide (equal runs, a metric at 100 %) must stay visible: each has its own
// dash pattern and marker, and sits slightly apart from the others at every x.
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 5", "10 4"];
const MARKERS = ["circle", "square", "triangle", "diamond", "triangle-down", "cross"];
function marker(kind, cx, cy, color) {
  const r = 4.5;
  const poly = pts => `<polygon class="pt" points="${pts.map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ")}" fill="${color}"/>`;
  if (kind === "square") return `<rect class="pt" x="${cx - r + 0.5}" y="${cy - r + 0.5}" width="${2 * r - 1}" height="${2 * r - 1}" fill="${color}"/>`;
  if (kind === "triangle") return poly([[0, -r - 0.5], [r, r - 0.5], [-r, r - 0.5]]);
  if (kind === "triangle-down") return poly([[0, r + 0.5], [r, -r + 0.5], [-r, -r + 0.5]]);
  if (kind === "diamond") return poly([[0, -r - 1], [r + 1, 0], [0, r + 1], [-r - 1, 0]]);
  if (kind === "cross") return `<path class="pt" d="M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx - r},${cy + r}L${cx + r},${cy - r}" stroke="${color}" stroke-width="2.5"/>`;
  return `<circle class="pt" cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/>`;
}
function lineChart(series, rounds, title, xlabels, xtitle) {
  // series: [{name, color, values[round] (0..1 or null), intervals[round] ({low, high} or null)}]
  const xl = r => xlabels ? xlabels[r] : `EC_${r}`;
  const W = 560, H = 280, L = 44, R = 12, T = 24, B = 34;
  // The first and last rounds sit inside the axes (error bars and markers clear of them), each
  // series shifted a few pixels from the others.
  const PAD = 18, spread = Math.min(4, 24 / Math.max(1, series.length));
  const x = r => L + PAD + (rounds <= 1 ? (W - L - R - 2 * PAD) / 2 : r * (W - L - R - 2 * PAD) / (rounds - 1));
  const xs = (r, i) => x(r) + (i - (series.length - 1) / 2) * spread;
  const clamp = v => Math.max(0, Math.min(1, v));
  const y = v => T + (1 - clamp(v)) * (H - T - B);
  let svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}">`;
  svg += `<text x="${L}" y="15" font-weight="600">${esc(title)}</text>`;
  for (let g = 0; g <= 4; g++) {
    const v = g / 4;
    svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v * 100}</text>`;
  }
  for (let r = 0; r < rounds; r++) svg += `<text x="${x(r)}" y="${H - B + 16}" text-anchor="middle">${esc(xl(r))}</text>`;
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  svg += `<text x="${(W + L) / 2}" y="${H - 4}" text-anchor="middle">${esc(xtitle || "correction rounds")}</text>`;
  series.forEach((s, i) => {
    const pts = s.values.map((v, r) => v === null || v === undefined ? null : [xs(r, i), y(v), v, r]).filter(Boolean);
    svg += `<g class="s" data-series="${i}">`;
    if (s.intervals) s.intervals.forEach((ci, r) => {
      if (ci && ci.low !== null && ci.low !== undefined && s.values[r] !== null && s.values[r] !== undefined) {
        const cx = xs(r, i);
        svg += `<line class="errbar" stroke="${s.color}" x1="${cx}" x2="${cx}" y1="${y(ci.low)}" y2="${y(ci.high)}"/>` +
          `<line class="errbar" stroke="${s.color}" x1="${cx - 4}" x2="${cx + 4}" y1="${y(ci.low)}" y2="${y(ci.low)}"/><line class="errbar" stroke="${s.color}" x1="${cx - 4}" x2="${cx + 4}" y1="${y(ci.high)}" y2="${y(ci.high)}"/>`;
      }
    });
    const dash = DASHES[i % DASHES.length];
    if (pts.length > 1) svg += `<polyline class="series" stroke="${s.color}"${dash ? ` stroke-dasharray="${dash}"` : ""} points="${pts.map(p => p[0] + "," + p[1]).join(" ")}"/>`;
    for (const p of pts) svg += marker(MARKERS[i % MARKERS.length], p[0], p[1], s.color);
    svg += "</g>";
  });
  // One hover band per round: its tooltip lists every series there (points often coincide).
  const half = rounds <= 1 ? (W - L - R) / 2 : (W - L - R) / (rounds - 1) / 2;
  for (let r = 0; r < rounds; r++) {
    const tip = `${xl(r)}\n` + series.map(s => `${s.name}: ${pct(s.values[r])}%` + (s.intervals && s.intervals[r] && s.intervals[r].low !== null && s.intervals[r].low !== undefined ? ` [${pct(s.intervals[r].low)}, ${pct(s.intervals[r].high)}]` : "")).join("\n");
    svg += `<rect class="band" x="${Math.max(L, x(r) - half)}" y="${T}" width="${Math.min(x(r) + half, W - R) - Math.max(L, x(r) - half)}" height="${H - T - B}" fill="transparent" data-tip="${esc(tip)}"/>`;
  }
  svg += "</svg>";
  const key = i => `<svg class="key" width="30" height="12" viewBox="0 0 30 12" aria-hidden="true"><line x1="1" x2="29" y1="6" y2="6" stroke="${series[i].color}" stroke-width="2"${DASHES[i % DASHES.length] ? ` stroke-dasharray="${DASHES[i % DASHES.length]}"` : ""}/>${marker(MARKERS[i % MARKERS.length], 15, 6, series[i].color)}</svg>`;
  const legend = `<div class="legend">${series.map((s, i) => `<span data-toggle="${i}">${key(i)}${esc(s.name)}</span>`).join("")}</div>`;
  return `<div class="chart-box">${svg}${legend}</div>`;
}
function countStep(tallest, most) {
  // The smallest round step (1, 2, 2.5, 5 times a power of ten, whole numbers only) that spans
  // ``tallest`` in at most ``most`` steps.
  for (let scale = 1; ; scale *= 10) {
    for (const m of [1, 2, 2.5, 5]) {
      const step = m * scale;
      if (Number.isInteger(step) && Math.ceil(tallest / step) <= most) return step;
    }
  }
}
function barChart(rows, title) {
  // rows: [{round, invalid, categories: {name: count}}]: stacked bars per round
  const names = [];
  rows.forEach(r => Object.keys(r.categories).forEach(n => { if (!names.includes(n)) names.push(n); }));
  const W = 560, H = 280, L = 44, R = 12, T = 24, B = 34;
  // The axis ends on a labelled tick at or above the tallest bar (a round step: 1, 2, 5, 10, 20, 25, 50 ...).
  const tallest = Math.max(1, ...rows.map(r => r.invalid));
  const step = countStep(tallest, 5), max = Math.ceil(tallest / step) * step;
  const band = (W - L - R) / Math.max(1, rows.length), bw = Math.min(60, band * 0.6);
  const y = v => T + (1 - v / max) * (H - T - B);
  let svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}">`;
  svg += `<text x="${L}" y="15" font-weight="600">${esc(title)}</text>`;
  for (let v = 0; v <= max; v += step) svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`;
  rows.forEach((row, i) => {
    const cx = L + band * i + band / 2;
    let base = 0;
    names.forEach((name, k) => {
      const n = row.categories[name] || 0;
      if (!n) return;
      svg += `<rect class="bar" data-series="${k}" x="${cx - bw / 2}" y="${y(base + n)}" width="${bw}" height="${y(base) - y(base + n)}" fill="${COLORS[k % COLORS.length]}" data-tip="EC_${row.round}: ${esc(name)} ${n} of ${row.invalid} invalid"/>`;
      base += n;
    });
    svg += `<text x="${cx}" y="${H - B + 16}" text-anchor="middle">EC_${row.round}</text>`;
  });
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  svg += `<text x="${(W + L) / 2}" y="${H - 4}" text-anchor="middle">invalid items per round, by first error</text></svg>`;
  const legend = names.length ? `<div class="legend">${names.map((n, k) => `<span data-toggle="${k}"><i style="background:${COLORS[k % COLORS.length]}"></i>${esc(n)}</span>`).join("")}</div>`
    : `<p class="muted">No syntax errors in any round.</p>`;
  return `<div class="chart-box">${svg}${legend}</div>`;
}
function histogram(values, title, xlabel) {
  // values in 0..1: ten bins of 10 points, bar height = items.
  const W = 560, H = 240, L = 44, R = 12, T = 24, B = 34;
  const bins = Array(10).fill(0);
  values.forEach(v => { if (v !== null && v !== undefined) bins[Math.min(9, Math.floor(v * 10))] += 1; });
  const max = Math.max(1, ...bins), bw = (W - L - R) / 10;
  const y = v => T + (1 - v / max) * (H - T - B);
  let svg = `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><text x="${L}" y="15" font-weight="600">${esc(title)}</text>`;
  bins.forEach((n, i) => {
    svg += `<rect class="bar" x="${L + i * bw + 2}" y="${y(n)}" width="${bw - 4}" height="${y(0) - y(n)}" fill="${COLORS[0]}" data-tip="${i * 10}-${i * 10 + 10}%: ${n} items"/>`;
    svg += `<text x="${L + i * bw + bw / 2}" y="${H - B + 16}" text-anchor="middle">${i * 10}</text>`;
  });
  svg += `<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`;
  svg += `<text x="${L - 6}" y="${y(max) + 4}" text-anchor="end">${max}</text><text x="${(W + L) / 2}" y="${H - 4}" text-anchor="middle">${esc(xlabel)}</text></svg>`;
  return `<div class="chart-box">${svg}</div>`;
}
function heatColor(v) {
  if (v === null || v === undefined) return "#f3f4f6";
  const hue = Math.round(120 * v); // red (0) .. green (100%)
  return `hsl(${hue}, 60%, ${88 - 30 * Math.abs(v - 0.5)}%)`;
}
function ciText(ci) {
  return ci && ci.mean !== null && ci.mean !== undefined && ci.low !== null && ci.low !== undefined
    ? `${pct(ci.mean)} <span class="ci">[${pct(ci.low)}, ${pct(ci.high)}]</span>` : pct(ci ? ci.mean : null);
}
function bindCharts(root) {
  bindTips(root);
  root.querySelectorAll(".chart-box").forEach(box => box.querySelectorAll("[data-toggle]").forEach(span => {
    span.addEventListener("click", () => {
      span.classList.toggle("off");
      const hidden = span.classList.contains("off");
      box.querySelectorAll(`[data-series="${span.dataset.toggle}"]`).forEach(n => { n.style.display = hidden ? "none" : ""; });
    });
  }));
}

// ---------------------------------------------------------------------------------- leaderboard

// Default score columns: compact enough for three scoring modes at 1400 px (tick more).
const LB_DEFAULT = ["paper:executable", "paper:f1_effects", "semantic:plan_validity"];
// The kinds with a leaderboard table of their own (generation: the main table); any other kind
// the server knows gets kindTable: its registration's label and its runs' headline values.
const KIND_TABLES = { wm: wmTable, contamination: probeTable, judge: judgeTable, problem: problemTable };
// World-model tasks: the columns of their reports (text2world.reports.wm.COLUMNS).
const WM_COLUMNS = {
  "next-state": ["accuracy", "exact_legal", "illegal_accuracy", "state_f1", "dynamic_f1", "static_f1"],
  verify: ["accuracy", "false_positive_rate", "false_negative_rate", "step_accuracy"],
  propose: ["hit@1", "hit@3", "hit@5", "hit@10", "applicable@1"],
  plan: ["success", "declared_done", "state_accuracy", "cost_ratio"],
};

function lbModes(runs) {
  const modes = [];
  for (const run of runs) for (const m of Object.keys((run.summary || {}).metrics || {})) if (!modes.includes(m)) modes.push(m);
  return modes;
}
function lbScore(run, mode, metric, last) {
  const rows = ((run.summary || {}).metrics || {})[mode];
  if (!Array.isArray(rows) || !rows.length) return null;
  const row = last ? rows[rows.length - 1] : rows[0];
  return row[metric] ?? null;
}
function lbInterval(run, mode, metric, last) {
  // summary.intervals[mode][ec0|eck][metric] = [low, high] (runs made before have none)
  const cell = ((((run.summary || {}).intervals || {})[mode] || {})[last ? "eck" : "ec0"] || {})[metric];
  return Array.isArray(cell) ? { low: cell[0], high: cell[1] } : null;
}
function ratioCell(mean, interval) {
  // A ratio (cost / optimal cost): "1.05 ±0.03", the larger half-width of its 95% interval.
  if (mean === null || mean === undefined) return "–";
  if (!interval || interval.low === null || interval.low === undefined) return esc(mean.toFixed(2));
  const half = Math.max(mean - interval.low, interval.high - mean);
  return `<span title="95% interval ${interval.low.toFixed(2)} – ${interval.high.toFixed(2)}">${mean.toFixed(2)}<span class="ci"> ±${half.toFixed(2)}</span></span>`;
}
function aboveHalfCell(s) {
  // The count of domains above 50 %, then their share with its interval (probes made before
  // the share was summarised show the count alone).
  if (s.domains_above_half === null || s.domains_above_half === undefined) return "–";
  const share = s.above_half_interval;
  return esc(s.domains_above_half) + (share && share.mean !== null && share.mean !== undefined ? ` <span class="muted">(${ciCell(share.mean, share)}%)</span>` : "");
}
function ciCell(mean, interval) {
  // "62.4 ±7": the mean and the larger half-width of its 95% interval; exact bounds on hover.
  if (mean === null || mean === undefined) return "–";
  if (!interval || interval.low === null || interval.low === undefined) return pct(mean);
  const half = 100 * Math.max(mean - interval.low, interval.high - mean);
  return `<span title="95% interval ${pct(interval.low)} – ${pct(interval.high)}">${pct(mean)}<span class="ci"> ±${half.toFixed(half < 10 ? 1 : 0)}</span></span>`;
}
function lbValue(run, key) {
  const s = run.summary || {};
  if (key.startsWith("m:")) { const [, mode, metric, k] = key.split(":"); return lbScore(run, mode, metric, k === "k"); }
  if (key.startsWith("h:")) return (run.headline || {})[key.slice(2)] ?? null;
  if (key.startsWith("w:")) { const all = (((s.metrics || {}).all || {}).all || {}); return all[key.slice(2)] ?? null; }
  return { model: run.model || s.model || "", dataset: run.dataset || s.dataset || "", description: s.description || "",
    prompt: s.prompt || "", ec: s.ec, items: s.finished_items, cost: s.cost, id: run.id, task: run.task || "",
    rules: s.rules || "", rate: s.mean_rate, median: s.median_rate, above: s.domains_above_half }[key];
}
function modelCell(run) {
  const s = run.summary || {};
  let badges = "";
  if (run.reference_model) badges += ' <span class="badge ref" title="built-in reference model: checks the pipeline, not an LLM result">reference</span>';
  if (s.protocol && s.protocol !== "syntax" && run.model) {
    // a protocol beyond the paper's: its badge leads to the model's protocols side by side
    badges += ` <a class="badge protocol${s.oracle_feedback ? " oracle" : ""}" href="${protocolsLink(run.model)}" title="EC curves of this model's protocols side by side">${esc(s.protocol)}${s.oracle_feedback ? " (oracle)" : ""}</a>`;
  }
  if (run.status === "failed") badges += ` <span class="badge invalid failed" title="${esc(run.reason || "")}">failed</span>`;
  else if (!run.finished) badges += ' <span class="badge invalid">no summary</span>';
  // the run's short label tells two runs of one model apart (t2w eval --label, else its id's own part)
  const told = run.label ? `<span class="run-label muted" title="${esc(run.id)}">${esc(run.label)}</span>` : "";
  return `<td><a href="${runLink(run.id)}" title="${esc(run.id)}">${esc(run.model || s.model || run.id)}</a>${badges}${told}</td>`;
}
function itemsText(s) {
  // "N items x E epochs": --epochs asks each item E times, never more items
  const epochs = s.epochs || 1, planned = s.planned_items;
  const items = epochs > 1 && s.finished_samples === undefined ? null : s.finished_items;  // a summary from before samples were counted apart
  const samples = s.finished_samples ?? s.finished_items ?? 0;
  const whole = planned && (epochs > 1 ? samples >= planned * epochs : items === planned);
  const count = whole ? `${planned}` : `${items ?? "?"}${planned ? "/" + planned : ""}`;
  return epochs > 1 ? `${count} × ${epochs} epochs` : count;
}
function itemsCell(s) {
  const epochs = s.epochs || 1;
  const title = epochs > 1 ? ` title="${esc(`${s.finished_samples ?? s.finished_items ?? 0} of ${(s.planned_items || 0) * epochs} samples (items × epochs)`)}"` : "";
  return `<td class="num"${title}>${esc(itemsText(s))}</td>`;
}

async function leaderboard() {
  setCrumbs([["runs", "#/"]]);
  const { items: all, runsDir } = await allRuns();
  // One table per kind of run (the server says which kinds it knows); a damaged run, or one of
  // a kind the server does not know, is listed apart with its reason.
  const kindOf = r => r.kind || "generation";
  const listed = all.filter(r => r.status !== "damaged" && r.kind !== "unknown");
  const runs = listed.filter(r => kindOf(r) === "generation");
  const rank = k => { const i = Object.keys(KIND_TABLES).indexOf(k); return i < 0 ? Infinity : i; };
  const kinds = [...new Set(listed.map(kindOf))].filter(k => k !== "generation")
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const broken = all.filter(r => r.status === "damaged" || r.kind === "unknown");
  const modes = lbModes(runs);
  const pairs = [];  // every (mode, metric) some generation run has
  for (const mode of modes) for (const run of runs) for (const m of metricsOf(((run.summary || {}).metrics || {})[mode])) {
    if (m !== "simulable" && !pairs.some(([a, b]) => a === mode && b === m)) pairs.push([mode, m]);
  }
  if (!state.lbColumns) {
    state.lbColumns = new Set(pairs.map(([a, b]) => a + ":" + b).filter(k => LB_DEFAULT.includes(k)));
    if (!state.lbColumns.size && pairs.length) state.lbColumns.add(pairs[0][0] + ":" + pairs[0][1]);
  }
  function render() {
    const needle = state.lbFilter.toLowerCase();
    const match = r => !needle || [r.id, r.label, r.model, r.dataset, r.task, (r.summary || {}).description, (r.summary || {}).prompt]
      .some(v => String(v || "").toLowerCase().includes(needle));
    const shown = sortRows(runs.filter(match), state.lbSort, lbValue);
    const columns = pairs.filter(([mode, m]) => state.lbColumns.has(mode + ":" + m));
    const spanning = (text, key, cls = "") => sortHeader(text, key, state.lbSort, cls).replace("<th ", '<th rowspan="2" ');
    let head1 = `<tr><th rowspan="2"></th>${spanning("Model", "model")}${spanning("Dataset", "dataset")}${spanning("Descr.", "description")}` +
      `${spanning("Prompt", "prompt")}${spanning("EC", "ec", "num")}${spanning("Items", "items", "num")}${spanning("Cost", "cost", "num")}`;
    let head2 = "<tr>";
    for (const [mode, m] of columns) {
      head1 += `<th colspan="2" class="num">${esc(mode)} ${esc(label(m))}</th>`;
      head2 += sortHeader("EC_0", `m:${mode}:${m}:0`, state.lbSort, "num") + sortHeader("EC_k", `m:${mode}:${m}:k`, state.lbSort, "num");
    }
    head1 += "</tr>";
    head2 += "</tr>";
    const body = shown.map(run => {
      const s = run.summary || {};
      let cells = `<td><input type="checkbox" data-select="${esc(run.id)}" ${state.lbSelected.has(run.id) ? "checked" : ""} aria-label="select ${esc(run.id)}"></td>`;
      cells += modelCell(run);
      cells += `<td>${esc(run.dataset || s.dataset || "")}</td><td>${esc(s.description || "")}</td><td>${esc(s.prompt || "")}</td>`;
      cells += `<td class="num">${esc(s.ec ?? "")}</td>${itemsCell(s)}<td class="num">${money(s.cost)}</td>`;
      for (const [mode, m] of columns) for (const last of [false, true]) cells += `<td class="num">${ciCell(lbScore(run, mode, m, last), lbInterval(run, mode, m, last))}</td>`;
      return `<tr data-run="${esc(run.id)}" class="${run.status === "failed" ? "failed-run" : ""}">${cells}</tr>`;
    }).join("");
    const columnBoxes = modes.map(mode => `<span class="muted">${esc(mode)}:</span> ` + pairs.filter(([a]) => a === mode).map(([a, m]) =>
      `<label><input type="checkbox" data-column="${esc(a + ":" + m)}" ${state.lbColumns.has(a + ":" + m) ? "checked" : ""}> ${esc(label(m))}</label>`).join(" ")).join(" &nbsp; ");
    let html = `<h1>Runs <span class="muted">(${all.length} in ${esc(runsDir)})</span></h1>
      <div class="controls"><input type="search" id="lb-filter" placeholder="filter: model, dataset, task, prompt…" value="${esc(state.lbFilter)}">
      <button id="compare" ${state.lbSelected.size < 2 ? "disabled" : ""}>Compare selected (${state.lbSelected.size})</button></div>`;
    if (runs.length) {
      html += `<h2>Generation runs <span class="muted">(t2w eval: Table 1, %, mean ±95% interval half-width)</span></h2>
      <div class="controls lb-columns">${columnBoxes}</div>
      <div class="table-wrap"><table id="leaderboard"><thead>${head1}${head2}</thead><tbody>${body}</tbody></table></div>
      <p class="muted">EC_0: first answer; EC_k: after up to k corrections. Hover a score for its 95% interval. Click a header to sort, a model to open its run; select runs to compare them.</p>`;
    }
    for (const kind of kinds) {
      const list = listed.filter(r => kindOf(r) === kind);
      html += (KIND_TABLES[kind] || kindTable)(list.filter(match), kind, list);
    }
    if (broken.length) {
      html += `<h2>Runs that cannot be shown <span class="muted">(${broken.length})</span></h2><table id="broken-runs"><thead><tr><th>Run</th><th>Reason</th></tr></thead><tbody>
        ${broken.map(r => `<tr data-run="${esc(r.id)}"><td><a href="${runLink(r.id)}">${esc(r.id)}</a></td><td class="reason">${esc(r.reason || (r.problems || []).join("; ") || "unknown run kind " + r.kind)}</td></tr>`).join("")}</tbody></table>`;
    }
    if (!all.length) html += `<p class="muted">No runs in ${esc(runsDir)}. Make one with <code>t2w eval --model reference/noisy-oracle --ec 3</code>.</p>`;
    app.innerHTML = html;
    const filter = document.getElementById("lb-filter");
    filter.addEventListener("input", () => { state.lbFilter = filter.value; render(); const f = document.getElementById("lb-filter"); f.focus(); f.setSelectionRange(f.value.length, f.value.length); });
    app.querySelectorAll("[data-select]").forEach(box => box.addEventListener("change", () => {
      if (box.checked) state.lbSelected.add(box.dataset.select); else state.lbSelected.delete(box.dataset.select);
      const button = document.getElementById("compare");
      button.disabled = state.lbSelected.size < 2; button.textContent = `Compare selected (${state.lbSelected.size})`;
    }));
    app.querySelectorAll("[data-column]").forEach(box => box.addEventListener("change", () => {
      if (box.checked) state.lbColumns.add(box.dataset.column); else state.lbColumns.delete(box.dataset.column);
      render();
    }));
    document.getElementById("compare").addEventListener("click", () => {
      location.hash = "#/compare/" + [...state.lbSelected].map(encodeURIComponent).join(",");
    });
    bindSort(app, state.lbSort, render);
    tableKeys(app.querySelector("#leaderboard tbody"), tr => runLink(tr.dataset.run));
  }
  render();
  ready("leaderboard");
}

function wmTable(runs) {
  // World-model runs: each task's own metrics (overall), with their intervals.
  const byTask = {};
  runs.forEach(r => { (byTask[r.task || "?"] = byTask[r.task || "?"] || []).push(r); });
  let html = `<h2>World-model runs <span class="muted">(t2w wm, %, mean ±95% interval half-width, domains resampled)</span></h2>`;
  for (const [task, list] of Object.entries(byTask)) {
    const metrics = WM_COLUMNS[task] ? WM_COLUMNS[task].slice() : [];
    if (!metrics.length) list.forEach(r => Object.entries((((r.summary || {}).metrics || {}).all || {}).all || {}).forEach(([k, v]) => {
      if (typeof v === "number" && !["items", "format_errors", "unchecked", "positives", "negatives", "illegal_share"].includes(k) && !metrics.includes(k)) metrics.push(k);
    }));
    const rows = sortRows(list, state.lbSort, lbValue).map(r => {
      const s = r.summary || {};
      const all = ((s.metrics || {}).all || {}).all || {};
      const ci = s.intervals || {};
      return `<tr data-run="${esc(r.id)}" class="${r.status === "failed" ? "failed-run" : ""}"><td><input type="checkbox" data-select="${esc(r.id)}" ${state.lbSelected.has(r.id) ? "checked" : ""} aria-label="select ${esc(r.id)}"></td>${modelCell(r)}<td>${esc(s.rules || "")}${s.form && task === "next-state" ? ", " + esc(s.form) : ""}</td>${itemsCell(s)}
        ${metrics.map(m => `<td class="num">${m.includes("ratio") || m.startsWith("mean_") ? ratioCell(all[m], ci[m]) : ciCell(all[m], ci[m])}</td>`).join("")}</tr>`;
    }).join("");
    html += `<h3>${esc(task)}</h3><div class="table-wrap"><table class="wm-runs" data-task="${esc(task)}"><thead><tr><th></th>${sortHeader("Model", "model", state.lbSort)}<th>Rules</th>${sortHeader("Items", "items", state.lbSort, "num")}
      ${metrics.map(m => sortHeader(label(m), "w:" + m, state.lbSort, "num")).join("")}</tr></thead><tbody>${rows}</tbody></table></div>`;
  }
  return html;
}

function kindTable(runs, kind, every) {
  // A kind with no table of its own: titled by its registration's label, a column per
  // headline value of its task (GET /v1/runs gives both); ``every``: its runs, unfiltered.
  const metrics = [];
  every.forEach(r => Object.keys(r.headline || {}).forEach(m => { if (!metrics.includes(m)) metrics.push(m); }));
  const title = (every.find(r => r.kind_label) || {}).kind_label || kind;
  const rows = sortRows(runs, state.lbSort, lbValue).map(r => {
    const s = r.summary || {};
    return `<tr data-run="${esc(r.id)}" class="${r.status === "failed" ? "failed-run" : ""}"><td><input type="checkbox" data-select="${esc(r.id)}" ${state.lbSelected.has(r.id) ? "checked" : ""} aria-label="select ${esc(r.id)}"></td>${modelCell(r)}<td>${esc(r.dataset || s.dataset || "")}</td>${itemsCell(s)}
      ${metrics.map(m => `<td class="num">${numberText((r.headline || {})[m])}</td>`).join("")}</tr>`;
  }).join("");
  return `<h2>${esc(title)} <span class="muted">(its task's headline values)</span></h2>
    <div class="table-wrap"><table class="kind-runs" data-kind="${esc(kind)}"><thead><tr><th></th>${sortHeader("Model", "model", state.lbSort)}<th>Dataset</th>${sortHeader("Items", "items", state.lbSort, "num")}
    ${metrics.map(m => sortHeader(label(m), "h:" + m, state.lbSort, "num")).join("")}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function probeTable(runs) {
  const rows = sortRows(runs, state.lbSort, lbValue).map(r => {
    const s = r.summary || {};
    return `<tr data-run="${esc(r.id)}" class="${r.status === "failed" ? "failed-run" : ""}"><td></td>${modelCell(r)}<td>${esc(s.dataset || "")}</td>${itemsCell(s)}
      <td class="num">${ciCell(s.mean_rate, s.mean_rate_interval)}</td><td class="num">${pct(s.median_rate)}</td><td class="num">${aboveHalfCell(s)}</td></tr>`;
  }).join("");
  return `<h2>Contamination probes <span class="muted">(t2w contamination --model: share of gold n-grams the model reproduces, %)</span></h2>
    <div class="table-wrap"><table id="probe-runs"><thead><tr><th></th>${sortHeader("Model", "model", state.lbSort)}<th>Dataset</th>${sortHeader("Domains", "items", state.lbSort, "num")}
    ${sortHeader("Mean rate", "rate", state.lbSort, "num")}${sortHeader("Median", "median", state.lbSort, "num")}${sortHeader("Domains > 50%", "above", state.lbSort, "num")}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function kappaText(k) {
  // Cohen's kappa [95% interval], two decimals; undefined when one answer was given throughout.
  if (!k || k.mean === null || k.mean === undefined) return "undefined";
  return k.low === null || k.low === undefined ? k.mean.toFixed(2) : `${k.mean.toFixed(2)} [${k.low.toFixed(2)}, ${k.high.toFixed(2)}]`;
}

function judgeTable(runs) {
  const rows = runs.map(r => {
    const s = r.summary || {};
    return `<tr data-run="${esc(r.id)}"><td></td>${modelCell(r)}<td>${esc(s.source_run || "")}</td><td class="num">${esc(s.judged ?? "–")}</td>
      <td class="num">${kappaText(s.kappa)}</td><td class="num">${pct(s.accuracy)}</td></tr>`;
  }).join("");
  return `<h2>LLM judges <span class="muted">(t2w judge: agreement with our semantic verdicts, Cohen's kappa [95% interval], accuracy %)</span></h2>
    <div class="table-wrap"><table id="judge-runs"><thead><tr><th></th><th>Judge</th><th>Run judged</th><th class="num">Judged</th><th class="num">Kappa</th><th class="num">Accuracy</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

const PROBLEM_METRICS = ["parseable", "solvable", "equivalent", "similarity", "init_f1", "goal_f1"];

function problemTable(runs) {
  const rows = runs.map(r => {
    const s = r.summary || {}, last = (s.per_round || []).slice(-1)[0] || {};
    return `<tr data-run="${esc(r.id)}"><td></td>${modelCell(r)}<td>${esc(s.style || "")}</td><td>${esc(s.size || "")}</td>${itemsCell(s)}
      ${["parseable", "solvable", "equivalent"].map(m => `<td class="num">${ciText(last[m])}</td>`).join("")}</tr>`;
  }).join("");
  return `<h2>Problems from text <span class="muted">(t2w eval --task problem: the last round, %, mean [95% interval])</span></h2>
    <div class="table-wrap"><table id="problem-runs"><thead><tr><th></th><th>Model</th><th>Description</th><th>Size</th><th class="num">Items</th><th class="num">Parseable</th><th class="num">Solvable</th><th class="num">Equivalent</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function problemRunPage(runId, data) {
  const c = data.config || {}, s = data.summary, p = data.problem;
  const head = `<tr><th></th>${PROBLEM_METRICS.map(m => `<th class="num">${esc(label(m))}</th>`).join("")}</tr>`;
  const line = (name, row) => `<tr><td>${esc(name)}</td>${PROBLEM_METRICS.map(m => `<td class="num">${ciText(row[m])}</td>`).join("")}</tr>`;
  const itemRows = data.items.map(it => `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, it.item)}">${esc(it.item)}</a></td><td>${esc(it.size || "")}</td>
    <td class="num">${esc(it.epoch)}</td><td class="num">${esc(it.rounds ?? "")}</td>${["parseable", "solvable", "equivalent"].map(m => `<td>${yesno(it[m])}</td>`).join("")}<td>${esc(it.rule || "")}</td><td>${esc(it.counterexample || "")}</td></tr>`).join("");
  app.innerHTML = runHeader(runId, c, [["kind", "problems from text"], ["description", c.description], ["size", c.size], ["EC", c.ec],
      ["calls", s.calls], ["cost", money(s.cost)], ["created", c.created]], s) +
    `<h2>Per correction round <span class="muted">(%, mean [95% interval])</span></h2><table id="problem-rounds"><thead>${head}</thead><tbody>
      ${(p.per_round || []).map(r => line("EC_" + r.round, r)).join("")}</tbody></table>
    <h2>Floors <span class="muted">(trivial answers on the same items)</span></h2><table id="problem-floors"><thead>${head}</thead><tbody>
      ${Object.entries(p.floors || {}).map(([name, row]) => line(name, row)).join("")}</tbody></table>
    <h2>Items <span class="muted">(${data.items.length})</span></h2>
    <div class="table-wrap"><table id="items"><thead><tr><th>Item</th><th>Size</th><th class="num">Epoch</th><th class="num">Rounds</th><th>Parseable</th><th>Solvable</th><th>Equivalent</th><th>Rule</th><th>Counterexample</th></tr></thead><tbody>${itemRows}</tbody></table></div>`;
  itemsTableKeys(runId);
  ready("run");
}

function judgeRunPage(runId, data) {
  const c = data.config || {}, s = data.summary, j = data.judge;
  const m = j.confusion || {};
  const refRows = Object.entries(j.reference || {}).map(([name, f]) => `<tr><td>${esc(name)} <span class="muted">(same items)</span></td><td class="num">${kappaText(f.kappa)}</td><td class="num">${pct(f.accuracy)}</td></tr>`).join("");
  const paper = j.paper_kappa || {};
  const itemRows = data.items.map(it => `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, it.item)}">${esc(it.item)}</a></td><td>${esc(it.name || "")}</td>
    <td class="num">${esc(it.epoch)}</td><td>${esc(it.verdict)}</td><td class="${it.judge && it.judge !== it.ours ? "no" : ""}">${esc(it.judge || "no rating")}</td><td class="num">${esc(it.rating ?? "–")}</td></tr>`).join("");
  app.innerHTML = runHeader(runId, c, [["kind", "LLM judge"], ["run judged", c.source_run], ["its model", c.source_model], ["judged", `${j.judged} (${j.items} items)`],
      ["unparsed answers", j.unparsed], ["calls", s.calls], ["cost", money(s.cost)], ["created", c.created]], s) +
    `<h2>Agreement with our semantic verdicts</h2><table id="agreement"><thead><tr><th>Judge</th><th class="num">Cohen's kappa [95%]</th><th class="num">Accuracy %</th></tr></thead><tbody>
      <tr><td>${esc(c.model)}</td><td class="num" id="kappa">${kappaText(j.kappa)}</td><td class="num">${pct(j.accuracy)}</td></tr>${refRows}</tbody></table>
    <p class="muted">The paper (${esc(paper.source || "")}): kappa ${esc(paper.value)} between ${esc(paper.between || "")}. Ours: equivalent = same world; different or incomplete = different. The reference judges' rows are what a constant, a random and a perfect judge get on these items.</p>
    <h2>Confusion matrix <span class="muted">(rows: our verdict, columns: the judge's)</span></h2><table id="confusion"><thead><tr><th></th><th class="num">same</th><th class="num">different</th></tr></thead><tbody>
      ${["same", "different"].map(o => `<tr><th>${o}</th><td class="num">${(m[o] || {}).same ?? 0}</td><td class="num">${(m[o] || {}).different ?? 0}</td></tr>`).join("")}</tbody></table>
    <h2>Disagreements <span class="muted">(${(j.disagreements || []).length}, with our counterexample)</span></h2>
    <div class="table-wrap"><table id="disagreements"><thead><tr><th>Item</th><th>Ours</th><th>Judge</th><th>Counterexample</th></tr></thead><tbody>
      ${(j.disagreements || []).map(d => `<tr><td><a href="${itemLink(runId, d.item)}">${esc(d.item)}</a></td><td>${esc(d.verdict)}</td><td>${esc(d.judge)} (${esc(d.rating)})</td><td>${esc(d.counterexample || "equivalent on every sampled state")}</td></tr>`).join("")}</tbody></table></div>
    <h2>Items <span class="muted">(${data.items.length})</span></h2>
    <div class="table-wrap"><table id="items"><thead><tr><th>Item</th><th>Name</th><th class="num">Epoch</th><th>Our verdict</th><th>Judge</th><th class="num">Rating</th></tr></thead><tbody>${itemRows}</tbody></table></div>`;
  itemsTableKeys(runId);
  ready("run");
}

// ---------------------------------------------------------------------------------- compare

async function compare(ids) {
  setCrumbs([["runs", "#/"], ["compare", null]]);
  const { items } = await allRuns();
  const runs = ids.map(id => items.find(r => r.id === id) || { id, summary: null, missing: true });
  if (runs.some(r => !r.missing && (r.kind || "generation") !== "generation")) return comparePaired(runs);
  const overviews = await Promise.all(runs.map(r => r.missing ? null : getJSON(`/v1/runs/${encodeURIComponent(r.id)}/overview`).catch(() => null)));
  const modes = lbModes(runs.filter(r => r.summary));
  const names = runs.map(r => (r.model || r.id) + (r.label ? " [" + r.label + "]" : "") + " · " + ((r.summary || {}).description || "") + " · " + ((r.summary || {}).prompt || "") + " · EC" + ((r.summary || {}).ec ?? "?") + " · " + ((r.summary || {}).protocol || "syntax"));
  let html = `<h1>Compare ${runs.length} runs</h1>`;
  const models = [...new Set(runs.filter(r => !r.missing).map(r => r.model))];
  if (models.length === 1 && models[0] && new Set(runs.map(r => (r.summary || {}).protocol || "syntax")).size > 1) {
    html += `<p id="cmp-protocols">Runs of one model in different protocols: <a href="${protocolsLink(models[0])}">their EC curves per protocol side by side</a>.</p>`;
  }
  const missing = runs.filter(r => r.missing);
  if (missing.length) html += `<div class="error-box">Unknown runs: ${missing.map(r => esc(r.id)).join(", ")}</div>`;
  html += `<div class="controls"><label>mode <select id="cmp-mode">${modes.map(m => `<option ${m === state.runMode ? "selected" : ""}>${esc(m)}</option>`).join("")}</select></label>
    <label>curve <select id="cmp-metric"></select></label></div><div id="cmp-body"></div>`;
  app.innerHTML = html;
  const modeSel = document.getElementById("cmp-mode"), metricSel = document.getElementById("cmp-metric");
  function render() {
    const mode = modeSel.value;
    const metrics = [];
    runs.forEach(r => metricsOf(((r.summary || {}).metrics || {})[mode]).forEach(m => { if (!metrics.includes(m)) metrics.push(m); }));
    if (!metricSel.options.length || ![...metricSel.options].some(o => o.value === metricSel.value && metrics.includes(o.value))) {
      metricSel.innerHTML = metrics.map(m => `<option value="${esc(m)}">${esc(label(m))}</option>`).join("");
    }
    const metric = metricSel.value;
    let table = `<table><thead><tr><th>Run</th><th>Round</th>${metrics.map(m => `<th class="num">${esc(label(m))}</th>`).join("")}</tr></thead><tbody>`;
    runs.forEach((r, i) => {
      const rows = ((r.summary || {}).metrics || {})[mode] || [];
      rows.forEach((row, k) => {
        table += `<tr>${k === 0 ? `<td rowspan="${rows.length}"><a href="${runLink(r.id)}">${esc(names[i])}</a></td>` : ""}<td>EC_${row.round}</td>${metrics.map(m => `<td class="num">${ciCell(row[m], k === 0 ? lbInterval(r, mode, m, false) : k === rows.length - 1 ? lbInterval(r, mode, m, true) : null)}</td>`).join("")}</tr>`;
      });
    });
    table += "</tbody></table>";
    const maxRounds = Math.max(1, ...runs.map(r => (((r.summary || {}).metrics || {})[mode] || []).length));
    const series = runs.map((r, i) => ({ name: names[i], color: COLORS[i % COLORS.length],
      values: (((r.summary || {}).metrics || {})[mode] || []).map(row => row[metric] ?? null) }));
    // Items side by side: executable and mean F1 after the last round, per run.
    const itemIds = [...new Set(overviews.filter(Boolean).flatMap(o => o.items.map(it => it.item)))].sort();
    let items = `<table id="cmp-items"><thead><tr><th>Item</th>${runs.map((r, i) => `<th colspan="2">${esc(names[i])}</th>`).join("")}</tr><tr><th></th>${runs.map(() => "<th>Exec EC_k</th><th class=\"num\">F1 mean EC_k</th>").join("")}</tr></thead><tbody>`;
    for (const id of itemIds) {
      items += `<tr><td>${esc(id)}</td>`;
      overviews.forEach((o, i) => {
        const it = o && o.items.find(x => x.item === id);
        const sc = it && it.scores[mode];
        items += it ? `<td><a href="${itemLink(runs[i].id, id)}">${yesno(sc && sc.exec_eck)}</a></td><td class="num">${pct(sc && sc.f1_mean_eck)}</td>` : "<td>–</td><td>–</td>";
      });
      items += "</tr>";
    }
    items += "</tbody></table>";
    // Per domain x run: mean F1 after the last round, as a heat map.
    const heat = `<table class="heat" id="heatmap"><thead><tr><th>Domain</th>${runs.map((r, i) => `<th title="${esc(names[i])}">${esc(r.model || r.id)}${r.label ? `<br><span class="run-label muted">${esc(r.label)}</span>` : ""}</th>`).join("")}</tr></thead><tbody>${itemIds.map(id =>
      `<tr><td>${esc(id)}</td>${overviews.map(o => { const it = o && o.items.find(x => x.item === id); const v = it && (it.scores[mode] || {}).f1_mean_eck;
        return `<td style="background:${heatColor(v)}" title="${esc(id)}: ${pct(v)}">${v === null || v === undefined ? "–" : Math.round(100 * v)}</td>`; }).join("")}</tr>`).join("")}</tbody></table>`;
    document.getElementById("cmp-body").innerHTML = `<h2>Table 1 per round (${esc(mode)}, %; EC_0 and EC_k ±95% interval half-width)</h2><div class="table-wrap">${table}</div>
      <h2>EC curve</h2><div class="card">${lineChart(series, maxRounds, label(metric) + " (" + mode + ")")}</div>
      <div id="paired"><p class="muted">Loading the paired comparison…</p></div>
      <h2>Per domain x run <span class="muted">(mean F1 at EC_k, ${esc(mode)}, %)</span></h2><div class="table-wrap">${heat}</div>
      <h2>Items</h2><div class="table-wrap">${items}</div>`;
    bindCharts(document.getElementById("cmp-body"));
    pairedSection(runs.filter(r => !r.missing), mode).then(html => { const box = document.getElementById("paired"); if (box) box.innerHTML = html; });
  }
  modeSel.addEventListener("change", () => { state.runMode = modeSel.value; render(); });
  metricSel.addEventListener("change", render);
  render();
  ready("compare");
}

async function pairedSection(runs, mode) {
  // The first run (A) against each other (B), item by item: t2w compare A B.
  let html = "";
  for (const other of runs.slice(1)) {
    let data;
    try { data = await getJSON(`/v1/runs/${encodeURIComponent(runs[0].id)}/compare/${encodeURIComponent(other.id)}?mode=${encodeURIComponent(mode)}`); }
    catch (err) { html += `<div class="note">${esc(other.model || other.id)} vs ${esc(runs[0].model || runs[0].id)}: ${esc(err.message)}</div>`; continue; }
    const signed = ci => ci.mean === null ? "–" : `${(100 * ci.mean >= 0 ? "+" : "") + (100 * ci.mean).toFixed(1)} <span class="ci">[${(100 * ci.low).toFixed(1)}, ${(100 * ci.high).toFixed(1)}]</span>`;
    const side = x => x.model + (x.label ? ` [${x.label}]` : "");  // two runs of one model told apart
    html += `<h2>Paired: ${esc(side(data.b))} (B) − ${esc(side(data.a))} (A) <span class="muted">(${data.common_items} common items, points, 95% paired bootstrap${data.clustered_by_domain ? " over domains" : ""}, seed ${data.seed})</span></h2>
      ${data.notes.map(n => `<div class="note">${esc(n)}</div>`).join("")}
      <div class="table-wrap"><table class="paired"><thead><tr><th>Metric</th><th class="num">A</th><th class="num">B</th><th class="num">B − A</th><th class="num">p</th><th class="num">B wins</th><th class="num">ties</th><th class="num">B loses</th></tr></thead><tbody>
      ${data.metrics.map(r => `<tr><td>${esc(r.metric)}</td><td class="num">${pct(r.mean_a)}</td><td class="num">${pct(r.mean_b)}</td><td class="num">${signed(r.difference)}</td>
        <td class="num ${r.p_value !== null && r.p_value < 0.05 ? "no" : ""}">${r.p_value === null ? "–" : r.p_value.toPrecision(2)}</td><td class="num">${r.wins}</td><td class="num">${r.ties}</td><td class="num">${r.losses}</td></tr>`).join("")}</tbody></table></div>
      <p>Per domain (${esc(data.headline)}): B better in <b>${data.domains.wins}</b>, equal in <b>${data.domains.ties}</b>, worse in <b>${data.domains.losses}</b>.</p>
      ${data.differ_most.length ? `<h3>Domains that differ most</h3><table class="differ"><thead><tr><th>Domain</th><th class="num">Items</th><th class="num">A</th><th class="num">B</th><th class="num">B − A</th></tr></thead><tbody>${data.differ_most.map(d =>
        `<tr><td>${esc(d.domain)}</td><td class="num">${d.items}</td><td class="num">${pct(d.a)}</td><td class="num">${pct(d.b)}</td><td class="num">${(100 * d.difference).toFixed(1)}</td></tr>`).join("")}</tbody></table>` : ""}`;
  }
  return html;
}

async function comparePaired(runs) {
  // Runs of world-model tasks or probes: their item-by-item comparison only.
  const missing = runs.filter(r => r.missing);
  app.innerHTML = `<h1>Compare ${runs.length} runs</h1>${missing.length ? `<div class="error-box">Unknown runs: ${missing.map(r => esc(r.id)).join(", ")}</div>` : ""}<div id="cmp-body">${await pairedSection(runs.filter(r => !r.missing), "paper")}</div>`;
  ready("compare");
}

// ---------------------------------------------------------------------------------- run page

function tableKeys(tbody, linkOf, up) {
  // j/k (or arrows) move a cursor through the rows, Enter opens the row, u goes up.
  keyHandler = key => { if (key === "u" && up) { location.hash = up; return true; } return false; };
  if (!tbody) return;
  const rows = () => [...tbody.querySelectorAll("tr")];
  const mark = () => rows().forEach((tr, i) => tr.classList.toggle("cursor", i === state.cursor));
  state.cursor = Math.min(state.cursor, Math.max(0, rows().length - 1));
  keyHandler = key => {
    const list = rows();
    if (!list.length) return false;
    if (key === "j" || key === "ArrowDown") state.cursor = Math.min(list.length - 1, state.cursor + 1);
    else if (key === "k" || key === "ArrowUp") state.cursor = Math.max(0, state.cursor - 1);
    else if (key === "Enter") { location.hash = linkOf(list[state.cursor]); return true; }
    else if (key === "u" && up) { location.hash = up; return true; }
    else return false;
    mark(); list[state.cursor].scrollIntoView({ block: "nearest" });
    return true;
  };
}

// The kinds with a run page of their own (generation: runPage's own); any other gets kindRunPage.
const RUN_PAGES = { wm: wmRunPage, contamination: probeRunPage, judge: judgeRunPage, problem: problemRunPage };

async function runPage(runId) {
  const data = await getJSON(`/v1/runs/${encodeURIComponent(runId)}/overview`);
  const c = data.config || {};
  setCrumbs([["runs", "#/"], [c.model || runId, null]]);
  if (RUN_PAGES[data.kind]) return RUN_PAGES[data.kind](runId, data);
  if (data.kind !== "generation") return kindRunPage(runId, data);
  if (!state.runMode || !data.modes.includes(state.runMode)) state.runMode = data.modes[0] || "paper";
  const s = data.summary;
  function render() {
    const mode = state.runMode;
    const rows = data.per_round[mode] || [];
    const metrics = metricsOf(rows);
    const cis = (data.intervals || {})[mode] || [];
    const cell = (row, m) => m === "simulable" || !cis[row.round] || !cis[row.round][m] ? pct(row[m]) : ciText(cis[row.round][m]);
    const table = `<table id="table1"><thead><tr><th>Round</th><th class="num">Items</th><th class="num">Valid</th>${metrics.map(m => `<th class="num">${esc(label(m))}</th>`).join("")}</tr></thead><tbody>
      ${rows.map(row => `<tr><td>EC_${row.round}</td><td class="num">${row.items}</td><td class="num">${s.valid_at_round[row.round] ?? "–"}</td>${metrics.map(m => `<td class="num">${cell(row, m)}</td>`).join("")}</tr>`).join("")}</tbody></table>
      <p class="muted">mean [95% interval]: percentile bootstrap over items, 2000 resamples, fixed seed.${mode === "semantic" ? " Semantic means are over the rounds that could be simulated ('simulable' is their share)." : ""}</p>`;
    const series = metrics.filter(m => m !== "simulable").map((m, i) => ({ name: label(m), color: COLORS[i % COLORS.length], values: rows.map(r => r[m]),
      intervals: rows.map(r => (cis[r.round] || {})[m] || null) }));
    const f1s = data.items.map(it => (it.scores[mode] || {}).f1_mean_eck).filter(v => v !== null && v !== undefined);
    const needle = state.runFilter.toLowerCase();
    const items = sortRows(data.items.filter(it => !needle || (it.item + " " + (it.name || "") + " " + (it.category_ec0 || "")).toLowerCase().includes(needle)),
      state.runSort, (it, key) => key.startsWith("s:") ? (it.scores[mode] || {})[key.slice(2)]
        : key.startsWith("e:") ? ((it.scores[mode] || {}).eck || {})[key.slice(2)] : it[key]);
    // A mode beyond paper and canonical (semantic) shows its own metrics after the last round.
    const extra = [];
    data.items.forEach(it => Object.keys((it.scores[mode] || {}).eck || {}).forEach(k => { if (!extra.includes(k) && k !== "executable") extra.push(k); }));
    const standard = !extra.length;
    const verdicts = !standard && data.items.some(it => (it.scores[mode] || {}).verdict_eck);
    const itemRows = items.map(it => {
      const sc = it.scores[mode] || {};
      return `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, it.item)}">${esc(it.item)}</a></td><td>${esc(it.name || "")}</td>
        <td class="num">${it.valid_round ?? '<span class="no">never</span>'}</td><td class="num">${it.rounds ?? ""}</td><td>${esc(it.category_ec0 || "")}</td>
        <td>${yesno(sc.exec_ec0)}</td><td>${yesno(sc.exec_eck)}</td>${standard ? `<td class="num">${pct(sc.similarity_eck)}</td><td class="num">${pct(sc.f1_mean_eck)}</td>`
          : extra.map(k => `<td class="num">${pct((sc.eck || {})[k])}</td>`).join("")}${verdicts ? `<td>${esc(sc.verdict_eck || "–")}</td>` : ""}</tr>`;
    }).join("");
    app.innerHTML = `${runTitle(runId, c, s)}
      <div class="card kv">${[["dataset", c.dataset], ["description", c.description], ["prompt", c.prompt], ["EC", c.ec],
        ["protocol", (c.protocol || "syntax") + (c.oracle_feedback ? " (oracle feedback)" : "") + (s.tool_calls ? `, ${s.tool_calls} tool calls` : "")],
        ...(c.epochs > 1 ? [["epochs", c.epochs]] : []),
        ["items", itemsText(s)], ["calls", `${s.calls} (${s.cached_calls} cached)`],
        ["tokens", `${s.prompt_tokens} in, ${s.completion_tokens} out`], ["cost", money(s.cost)],
        ["infrastructure errors", s.infrastructure_errors], ["created", c.created]]
        .map(([k, v]) => `<div><span>${esc(k)}</span>${esc(v ?? "–")}</div>`).join("")}
        ${c.reference_model ? '<div class="note">reference model: built from the gold domains, not an LLM result</div>' : ""}</div>
      <div class="tabs" id="modes">${data.modes.map(m => `<a href="javascript:void 0" data-mode="${esc(m)}" class="${m === mode ? "active" : ""}">${esc(m)}</a>`).join("")}</div>
      <h2>Table 1 per round (${esc(mode)}, %)</h2><div class="table-wrap">${table}</div>
      <div class="charts"><div class="card">${lineChart(series, rows.length, "EC curve (" + mode + ", %, bars: 95% intervals)")}</div>
        <div class="card">${barChart(data.error_categories, "Syntax error categories")}</div>
        ${f1s.length ? `<div class="card">${histogram(f1s, "Score distribution: mean F1 at EC_k (" + mode + ")", "mean F1 at EC_k (%)")}</div>` : ""}</div>
      <div id="scaling"></div><div id="protocols-panel"></div>
      <div id="published"></div>
      <h2>Items <span class="muted">(${data.items.length})</span></h2>
      <div class="controls"><input type="search" id="run-filter" placeholder="filter items…" value="${esc(state.runFilter)}"></div>
      <div class="table-wrap"><table id="items"><thead><tr>${sortHeader("Item", "item", state.runSort)}${sortHeader("Name", "name", state.runSort)}
        ${sortHeader("Valid at", "valid_round", state.runSort, "num")}${sortHeader("Rounds", "rounds", state.runSort, "num")}${sortHeader("EC_0 error", "category_ec0", state.runSort)}
        ${sortHeader("Exec EC_0", "s:exec_ec0", state.runSort)}${sortHeader("Exec EC_k", "s:exec_eck", state.runSort)}
        ${standard ? sortHeader("Sim EC_k", "s:similarity_eck", state.runSort, "num") + sortHeader("F1 mean EC_k", "s:f1_mean_eck", state.runSort, "num")
          : extra.map(k => sortHeader(label(k) + " EC_k", "e:" + k, state.runSort, "num")).join("")}${verdicts ? sortHeader("Verdict EC_k", "s:verdict_eck", state.runSort) : ""}</tr></thead><tbody>${itemRows}</tbody></table></div>`;
    app.querySelectorAll("[data-mode]").forEach(a => a.addEventListener("click", () => { state.runMode = a.dataset.mode; render(); }));
    publishedPanel(runId);
    if (c.epochs > 1) scalingPanel(runId, mode);
    protocolsPanel(c.model);
    const filter = document.getElementById("run-filter");
    filter.addEventListener("input", () => { state.runFilter = filter.value; render(); const f = document.getElementById("run-filter"); f.focus(); f.setSelectionRange(f.value.length, f.value.length); });
    app.querySelectorAll("tr[data-item]").forEach(tr => tr.addEventListener("click", e => { if (e.target.tagName !== "A") location.hash = itemLink(runId, tr.dataset.item); }));
    bindSort(app, state.runSort, render);
    bindCharts(app);
    tableKeys(app.querySelector("#items tbody"), tr => itemLink(runId, tr.dataset.item), "#/");
  }
  render();
  ready("run");
}

// ---------------------------------------------------------------------------------- item page

function codeBlock(text, errorLines, id) {
  const bad = new Set(errorLines || []);
  const lines = String(text ?? "").split("\n");
  return `<div class="code" id="${id}">${lines.map((line, i) => `<div class="ln${bad.has(i + 1) ? " err" : ""}" data-line="${i + 1}"><span class="no">${i + 1}</span><pre>${esc(line) || " "}</pre></div>`).join("")}</div>`;
}
function splitThink(text) {
  // <think> blocks inside an answer are reasoning too: shown collapsed, apart from the answer.
  const thoughts = [];
  const rest = String(text ?? "").replace(/<think>([\s\S]*?)(<\/think>|$)/gi, (_, inner) => { thoughts.push(inner.trim()); return ""; });
  return { thoughts, rest: rest.trim() };
}
function scoresTable(scores) {
  const modes = Object.keys(scores || {}).filter(m => scores[m]);
  if (!modes.length) return '<p class="muted">not scored</p>';
  const metrics = [];
  modes.forEach(m => Object.entries(scores[m]).forEach(([k, v]) => { if ((typeof v === "number" || typeof v === "boolean") && !metrics.includes(k)) metrics.push(k); }));
  return `<table class="scores"><thead><tr><th>mode</th>${metrics.map(m => `<th class="num">${esc(label(m))}</th>`).join("")}</tr></thead><tbody>${modes.map(mode =>
    `<tr><td>${esc(mode)}</td>${metrics.map(m => { const v = scores[mode][m]; return `<td class="num">${typeof v === "boolean" ? yesno(v) : pct(v)}</td>`; }).join("")}</tr>`).join("")}</tbody></table>`;
}
function diagnoses(scores) {
  // Semantic scoring (where computed) explains itself in lists: shown as they are.
  let html = "";
  for (const [mode, value] of Object.entries(scores || {})) {
    if (!value || typeof value !== "object") continue;
    for (const [key, list] of Object.entries(value)) {
      if (!Array.isArray(list) || !list.length || key === "errors") continue;
      html += `<h3>${esc(mode)}: ${esc(key.replace(/_/g, " "))}</h3><ul class="errors">${list.map(d => `<li>${esc(typeof d === "string" ? d : d.message || d.diagnosis || JSON.stringify(d))}</li>`).join("")}</ul>`;
    }
    if (value.reason) html += `<p class="note">${esc(mode)}: ${esc(value.reason)}</p>`;
  }
  return html;
}
const SEMANTIC_LABELS = { plan_validity: "Plan valid", gold_plan_acceptance: "Gold plan accepted",
  applicability_f1: "Applicability F1", transition_accuracy: "Transition accuracy" };
function semanticBlock(sem) {
  // The round's semantic scoring as logged (round.semantic): metrics, verdict, diagnoses per
  // action, and per problem whether the prediction's plan holds in the gold (else where it fails).
  if (!sem) return '<p class="muted" id="semantic">No semantic scores in this round (run t2w eval --semantic, or t2w score-run --semantic).</p>';
  let html = `<div id="semantic" class="card"><h3>Semantic scores (behaviour on the gold's problems)${sem.verdict ? ` <span class="badge verdict ${sem.verdict === "equivalent" ? "valid" : "invalid"}">${esc(sem.verdict)}</span>` : ""}</h3>`;
  if (!sem.ok) html += `<div class="note">not simulated: ${esc(sem.reason || "")}</div>`;
  html += `<table class="scores"><thead><tr>${Object.values(SEMANTIC_LABELS).map(l => `<th class="num">${esc(l)}</th>`).join("")}</tr></thead><tbody><tr>${Object.keys(SEMANTIC_LABELS).map(k => `<td class="num">${pct(sem[k])}</td>`).join("")}</tr></tbody></table>`;
  const diagnoses = sem.diagnoses || [];
  html += diagnoses.length ? `<h3>Diagnoses per action</h3><table id="diagnoses"><thead><tr><th>Action</th><th>Kind</th><th>Literal</th><th class="num">Count</th><th>Diagnosis</th></tr></thead><tbody>${diagnoses.map(d =>
    `<tr><td>${esc(d.action)}</td><td>${esc(d.kind)}</td><td><code>${esc(d.literal || "")}</code></td><td class="num">${esc(d.count ?? "")}</td><td>${esc(d.message || "")}</td></tr>`).join("")}</tbody></table>`
    : (sem.ok ? '<p class="yes">No behavioural difference found on the sampled states.</p>' : "");
  const problems = sem.problems || [];
  if (problems.length) {
    html += `<h3>Per problem</h3><table id="sem-problems"><thead><tr><th>Problem</th><th>Own plan valid in the gold</th><th>Gold plan accepted</th></tr></thead><tbody>${problems.map(p =>
      `<tr><td>${esc(p.name)}</td><td>${yesno(p.plan_valid)} <span class="${p.plan_valid ? "muted" : "no"}">${p.plan_valid ? "" : esc(p.plan_reason || "")}</span></td><td>${yesno(p.gold_plan_accepted)} <span class="${p.gold_plan_accepted ? "muted" : "no"}">${p.gold_plan_accepted ? "" : esc(p.gold_plan_reason || "")}</span></td></tr>`).join("")}</tbody></table>`;
  } else if (sem.ok) html += '<p class="muted">Per-problem plan results are not in this log (logged from this version on).</p>';
  return html + "</div>";
}
function diffSection(diff) {
  if (!diff) return '<p class="muted">Loading the diff…</p>';
  if (!diff.ok) return `<div class="note">No per-action diff: ${esc(diff.reason)}</div>`;
  const only = state.diffOnly;
  const rowsHtml = (rows) => rows.filter(r => !only || r.status !== "matched").map(r =>
    `<tr class="row-${r.status}"><td class="st"><span class="badge ${r.status}">${r.status}</span></td><td>${esc(r.gold ?? "")}</td><td>${esc(r.predicted ?? "")}</td></tr>`).join("");
  const count = (rows, st) => rows.filter(r => r.status === st).length;
  const section = (name, status, summary, body, differs) =>
    `<details class="diff-action" data-action="${esc(name)}" ${differs ? "open" : ""}><summary class="head"><b>${esc(name)}</b>${status ? `<span class="badge ${esc(status)}">${esc(status)}</span>` : ""}
      <span class="muted">${esc(summary)}</span></summary><table><thead><tr><th></th><th>gold</th><th>generated</th></tr></thead><tbody>${body}</tbody></table></details>`;
  const differs = rows => rows.some(r => r.status !== "matched");
  let html = diff.gold_note ? `<div class="note">${esc(diff.gold_note)}</div>` : "";
  const changed = diff.actions.filter(a => a.status !== "matched" || ["parameters", "preconditions", "effects"].some(c => differs(a[c]))).length;
  html += `<p class="muted">${diff.actions.length} actions, ${changed} with differences (open); identical ones are folded.</p>`;
  html += section("predicates", null, `${count(diff.predicates, "matched")} matched, ${count(diff.predicates, "missing")} missing, ${count(diff.predicates, "extra")} extra`,
    rowsHtml(diff.predicates), differs(diff.predicates));
  for (const action of diff.actions) {
    const f1 = Object.entries(action.f1 || {}).map(([k, v]) => `${k} F1 ${pct(v)}`).join(" · ");
    let body = "";
    for (const comp of ["parameters", "preconditions", "effects"]) {
      body += `<tr class="comp"><td colspan="3">${comp} <span class="muted">(${count(action[comp], "matched")} matched, ${count(action[comp], "missing")} missing, ${count(action[comp], "extra")} extra)</span></td></tr>${rowsHtml(action[comp])}`;
    }
    html += section(action.name, action.status, f1, body,
      action.status !== "matched" || ["parameters", "preconditions", "effects"].some(c => differs(action[c])));
  }
  return html;
}

async function itemPage(runId, itemId, roundParam) {
  const base = `/v1/runs/${encodeURIComponent(runId)}/items/${encodeURIComponent(itemId)}`;
  const item = await getJSON(base);
  setCrumbs([["runs", "#/"], [runId.length > 40 ? runId.slice(0, 40) + "…" : runId, runLink(runId)], [itemId, null]]);
  if (item.kind !== "generation") return otherItemPage(runId, itemId, item);
  const last = item.rounds.length - 1;
  const round = roundParam === undefined ? last : Math.max(0, Math.min(last, Number(roundParam)));
  const diffPromise = getJSON(`${base}/diff?round=${round}`);
  setCrumbs([["runs", "#/"], [runId.length > 40 ? runId.slice(0, 40) + "…" : runId, runLink(runId)], [itemId, null]]);
  const rnd = item.rounds[round] || {};
  const answer = splitThink(rnd.response);
  const reasoning = [rnd.reasoning, ...answer.thoughts].filter(Boolean);
  const errors = (rnd.validation || {}).errors || [], warnings = (rnd.validation || {}).warnings || [];
  const issue = (e) => `<li>${e.line ? `<a href="javascript:void 0" data-goto="${e.line}">line ${e.line}${e.column ? ":" + e.column : ""}</a> ` : ""}<b>${esc(e.category)}</b> ${esc(e.message)}</li>`;
  app.innerHTML = `<div class="nav-items">
      ${item.previous !== null ? `<a id="prev" href="${itemLink(runId, item.previous)}">← ${esc(item.previous)}</a>` : '<span class="muted">← first</span>'}
      <span class="muted">${item.position + 1} / ${item.count}</span>
      ${item.next !== null ? `<a id="next" href="${itemLink(runId, item.next)}">${esc(item.next)} →</a>` : '<span class="muted">last →</span>'}</div>
    <h1>${esc(item.item)} <span class="muted">${esc(item.name || "")}</span>
      ${item.valid ? `<span class="badge valid">valid at EC_${item.valid_round}</span>` : '<span class="badge invalid">never valid</span>'}</h1>
    <div class="tabs" id="rounds">${item.rounds.map(r => `<a href="${itemLink(runId, itemId, r.round)}" class="${r.round === round ? "active" : ""}">EC_${r.round} ${r.valid ? "✓" : "✗"}</a>`).join("")}</div>
    <div class="card"><div class="kv"><div><span>round</span>EC_${round} (${esc(ROUND_KINDS[rnd.kind] || rnd.kind || "")})</div><div><span>valid</span>${yesno(rnd.valid)}</div>
      <div><span>extracted</span>${yesno(rnd.extracted)}</div><div><span>tokens</span>${esc(rnd.prompt_tokens)} in, ${esc(rnd.completion_tokens)} out</div>
      <div><span>cost</span>${money(rnd.cost)}${rnd.cached ? " (cached)" : ""}</div><div><span>latency</span>${esc(rnd.latency)} s</div></div>
      <h3>Scores of this round (%)</h3>${scoresTable(rnd.scores)}${diagnoses(rnd.scores)}</div>
    <h2>Validation</h2>
    ${errors.length ? `<ul class="errors" id="errors">${errors.map(issue).join("")}</ul>` : '<p class="yes">No errors: the domain parses.</p>'}
    ${warnings.length ? `<details><summary>${warnings.length} warning(s)</summary><ul class="errors">${warnings.map(issue).join("")}</ul></details>` : ""}
    <div class="grid2"><div><h2>Extracted domain</h2>${codeBlock(rnd.domain, rnd.error_lines, "domain")}</div>
      <div><h2>Gold domain</h2>${item.gold_note ? `<div class="note">${esc(item.gold_note)}</div>` : ""}${item.gold === null ? "" : codeBlock(item.gold, [], "gold")}</div></div>
    <h2>Behaviour: semantic scores of EC_${round}</h2>${semanticBlock(rnd.semantic)}
    <h2>Per-action diff: gold vs generated (EC_${round})</h2>
    <div class="controls"><label><input type="checkbox" id="diff-only" ${state.diffOnly ? "checked" : ""}> only differences</label>
      <span class="muted">matched after renaming variables by parameter position (canonical mode)</span></div>
    <div id="diff">${diffSection(null)}</div>
    <h2>Answer</h2>
    ${reasoning.length ? `<details id="reasoning"><summary>reasoning (${reasoning.reduce((n, t) => n + t.length, 0)} characters)</summary>${reasoning.map(t => `<div class="msg"><pre>${esc(t)}</pre></div>`).join("")}</details>` : ""}
    <div class="msg"><pre>${esc(answer.rest)}</pre></div>
    ${rnd.feedback ? `<h2>Feedback for the next round (${esc(rnd.feedback.kind)}${rnd.feedback.oracle ? ", ORACLE: reveals the gold's behaviour" : ""})</h2><div class="msg" id="feedback"><pre>${esc(rnd.feedback.text)}</pre></div>` : ""}
    ${(rnd.tool_calls || []).length ? `<h2>Tool calls (${rnd.tool_calls.length}, ${esc(rnd.turns)} turns)</h2><div id="tool-calls">${rnd.tool_calls.map((c, i) => `<details class="msg"><summary>${i + 1}. ${esc(c.name)}${c.ok ? "" : " (error)"}</summary><div class="role">arguments</div><pre>${esc(c.arguments)}</pre><div class="role">answer</div><pre>${esc(c.answer)}</pre></details>`).join("")}</div>` : ""}
    <details id="prompt"><summary>prompt (${(rnd.messages || []).length} messages)</summary>${(rnd.messages || []).map(m => `<div class="msg"><div class="role">${esc(m.role)}</div><pre>${esc(m.content)}</pre></div>`).join("")}</details>`;
  app.querySelectorAll("[data-goto]").forEach(a => a.addEventListener("click", () => {
    const line = app.querySelector(`#domain [data-line="${a.dataset.goto}"]`);
    if (line) { line.scrollIntoView({ block: "center" }); line.classList.add("flash"); setTimeout(() => line.classList.remove("flash"), 1200); }
  }));
  const firstError = app.querySelector("#domain .ln.err");
  if (firstError) { const box = document.getElementById("domain"); box.scrollTop = Math.max(0, firstError.offsetTop - box.offsetTop - 60); }
  let diff = null;
  const renderDiff = () => { document.getElementById("diff").innerHTML = diffSection(diff); };
  document.getElementById("diff-only").addEventListener("change", e => { state.diffOnly = e.target.checked; renderDiff(); });
  keyHandler = key => {
    if ((key === "j" || key === "ArrowRight") && item.next !== null) { location.hash = itemLink(runId, item.next); return true; }
    if ((key === "k" || key === "ArrowLeft") && item.previous !== null) { location.hash = itemLink(runId, item.previous); return true; }
    if (key === "u" || key === "Escape") { location.hash = runLink(runId); return true; }
    if (/^[0-9]$/.test(key) && Number(key) <= last) { location.hash = itemLink(runId, itemId, Number(key)); return true; }
    return false;
  };
  try { diff = await diffPromise; } catch (err) { diff = { ok: false, reason: err.message }; }
  renderDiff();
  ready("item");
  // Warm the neighbours so that j/k feel instant.
  for (const id of [item.next, item.previous]) if (id !== null) getJSON(`/v1/runs/${encodeURIComponent(runId)}/items/${encodeURIComponent(id)}`).catch(() => {});
}

async function publishedPanel(runId) {
  // The paper's row of this run's model, from the table of the run's description and prompt, beside our figures (t2w report --against paper).
  const box = document.getElementById("published");
  if (!box) return;
  let data;
  try { data = await getJSON(`/v1/runs/${encodeURIComponent(runId)}/against/paper`); } catch (err) { box.innerHTML = `<p class="muted">Published figures: ${esc(err.message)}</p>`; return; }
  const src = data.table.source || {};
  const where = `${esc(src.table || "")}, arXiv ${esc(src.arxiv || "")} ${esc(src.version || "")}`;
  const chosen = `<p class="muted" id="published-chosen">table: ${esc(data.chosen || "")}</p>`;
  if (!data.matched) { box.innerHTML = `<h2>Published figures</h2>${chosen}<p class="muted" id="published-reason">${where}: ${esc(data.reason)}</p>`; return; }
  box.innerHTML = `<h2>Published figures <span class="muted">(${where}, ${esc(data.matched)}, paper mode, %)</span></h2>${chosen}
    ${data.notes.map(n => `<div class="note">conditions differ: ${esc(n)}</div>`).join("")}
    <table id="published-table"><thead><tr><th>Setting</th><th>Metric</th><th class="num">Published</th><th class="num">Ours [95%]</th><th></th></tr></thead><tbody>
    ${data.rows.map(r => `<tr><td>${esc(r.setting)}</td><td>${esc(label(r.metric))}</td><td class="num">${pct(r.published)}</td><td class="num">${ciText(r.ours)}</td>
      <td class="${r.status === "outside" ? "no" : ""}">${r.status === "outside" ? "outside our interval" : esc(r.note || r.status)}</td></tr>`).join("")}</tbody></table>`;
}

// ---------------------------------------------------------------------------------- protocols and test-time scaling

function protocolsLink(model) { return "#/protocols/" + encodeURIComponent(model); }
function curveLabel(key) {
  // "paper.executable" -> "Exec (paper)"; "semantic.equivalent" -> "Equivalent (semantic)"
  const [mode, ...rest] = key.split(".");
  const metric = rest.join(".");
  return (metric === "equivalent" ? "Equivalent" : label(metric)) + " (" + mode + ")";
}
function protocolCharts(data, semanticKey) {
  // The EC curves of a model's runs side by side, one line per protocol (GET /v1/protocols).
  const keys = [data.headline.executability, semanticKey || data.headline.semantic].filter(Boolean);
  const rounds = Math.max(1, ...data.series.map(s => 1 + s.ec));
  return `<div class="charts protocol-charts">${keys.map(key => `<div class="card" data-curve="${esc(key)}">${lineChart(
    data.series.map((s, i) => ({ name: s.label, color: COLORS[i % COLORS.length], values: s.curves[key] || [],
      intervals: (s.intervals || {})[key] || null })),
    rounds, curveLabel(key) + " per protocol, %" + (key === "semantic.equivalent" ? "" : " (bars: 95% intervals)"))}</div>`).join("")}</div>`;
}
async function protocolsPage(model) {
  setCrumbs([["runs", "#/"], [model, null], ["protocols", null]]);
  const data = await getJSON(`/v1/protocols?model=${encodeURIComponent(model)}`);
  const semantic = data.metrics.filter(k => k !== data.headline.executability);
  if (!state.protocolCurve || !semantic.includes(state.protocolCurve)) state.protocolCurve = data.headline.semantic;
  function render() {
    const rows = data.series.map((s, i) => {
      const cell = key => { const v = s.curves[key] || []; return `<td class="num">${pct(v[0])}</td><td class="num">${pct(v[v.length - 1])}</td>`; };
      return `<tr data-run="${esc(s.run_id)}"><td><span class="swatch" style="background:${COLORS[i % COLORS.length]}"></span> ${esc(s.label)}${s.oracle_feedback ? ' <span class="badge oracle">oracle</span>' : ""}</td>
        <td><a href="${runLink(s.run_id)}">${esc(s.run_id)}</a></td><td>${esc(s.dataset || "")}</td><td class="num">${s.items}</td><td class="num">${s.ec}</td><td class="num">${s.epochs}</td>
        ${[data.headline.executability, state.protocolCurve].filter(Boolean).map(cell).join("")}</tr>`;
    }).join("");
    const heads = [data.headline.executability, state.protocolCurve].filter(Boolean);
    app.innerHTML = `<h1>${esc(model)} <span class="muted">protocols side by side (${data.series.length} runs)</span></h1>
      ${data.notes.map(n => `<div class="note">${esc(n)}</div>`).join("")}
      <div class="controls"><label>semantic curve <select id="protocol-curve">${semantic.map(k => `<option value="${esc(k)}" ${k === state.protocolCurve ? "selected" : ""}>${esc(curveLabel(k))}</option>`).join("")}</select></label></div>
      ${protocolCharts(data, state.protocolCurve)}
      <h2>Runs</h2><div class="table-wrap"><table id="protocol-runs"><thead><tr><th>Protocol</th><th>Run</th><th>Dataset</th><th class="num">Items</th><th class="num">EC</th><th class="num">Epochs</th>
        ${heads.map(k => `<th class="num">${esc(curveLabel(k))} EC_0</th><th class="num">EC_k</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table></div>
      <p class="muted">Each line is one run's mean per correction round (EC_0 .. EC_k, all its samples), as <code>t2w report</code> gives it. What each protocol tells the model: docs/protocols.md.</p>`;
    document.getElementById("protocol-curve").addEventListener("change", e => { state.protocolCurve = e.target.value; render(); });
    bindCharts(app);
    tableKeys(app.querySelector("#protocol-runs tbody"), tr => runLink(tr.dataset.run), "#/");
  }
  render();
  ready("protocols");
}
async function protocolsPanel(model) {
  // On a run page: the model's other protocols, when it has runs of more than one.
  const box = document.getElementById("protocols-panel");
  if (!box || !model) return;
  let data;
  try { data = await getJSON(`/v1/protocols?model=${encodeURIComponent(model)}`); } catch (err) { return; }
  if (data.protocols.length < 2) return;
  box.innerHTML = `<h2>Protocols of this model <span class="muted">(${data.series.length} runs: ${data.protocols.map(esc).join(", ")}; <a href="${protocolsLink(model)}">side by side</a>)</span></h2>${protocolCharts(data)}`;
  bindCharts(box);
}
async function scalingPanel(runId, mode) {
  // A run with --epochs N: pass@k and best-of-N against N, beside the correction-budget curve.
  const box = document.getElementById("scaling");
  if (!box) return;
  let data;
  try { data = await getJSON(`/v1/runs/${encodeURIComponent(runId)}/scaling?mode=${encodeURIComponent(mode === "canonical" ? "canonical" : "paper")}`); }
  catch (err) { box.innerHTML = `<p class="muted">Test-time scaling: ${esc(err.message)}</p>`; return; }
  const names = { executable: "executable", equivalent: "semantically equivalent" };
  const series = [];
  for (const [kind, curves] of [["pass@k", data.pass_at_k], ["best-of-N", data.best_of_n]]) {
    for (const [name, values] of Object.entries(curves)) series.push({ name: `${kind} ${names[name] || name}`, color: COLORS[series.length % COLORS.length], values });
  }
  const ns = Array.from({ length: data.epochs }, (_, i) => String(i + 1));
  const budget = data.correction_budget.executable || [];
  box.innerHTML = `<h2>Test-time scaling <span class="muted">(${data.items} items, ${data.epochs} samples each, ${esc(data.label)}, ${esc(data.mode)} mode, %)</span></h2>
    <div class="charts scaling-charts"><div class="card" id="scaling-chart">${lineChart(series, data.epochs, "pass@k and best-of-N", ns, "samples: k (pass@k) or N (best-of-N)")}</div>
      <div class="card" id="budget-chart">${lineChart([{ name: "executable (first sample)", color: COLORS[0], values: budget }], budget.length, "Correction budget: EC_0 .. EC_k")}</div></div>
    <p class="muted">pass@k: the unbiased estimator of Chen et al. (2021). Best-of-N selection (no gold): ${esc(data.selection_rule)}.</p>`;
  bindCharts(box);
}

// ---------------------------------------------------------------------------------- world-model and probe runs

function runTitle(runId, c, s) {
  // the model, the run's short label (what tells it apart from the model's other runs), its id
  const told = c.label || (s || {}).label || "";
  return `<h1>${esc(c.model || runId)}${told && told !== runId ? ` <span class="run-label">${esc(told)}</span>` : ""} <span class="muted">${esc(runId)}</span></h1>`;
}
function runHeader(runId, c, extra, s) {
  return `${runTitle(runId, c, s)}
    <div class="card kv">${extra.map(([k, v]) => `<div><span>${esc(k)}</span>${esc(v ?? "–")}</div>`).join("")}
    ${c.reference_model ? '<div class="note">reference model: built from the gold domains, not an LLM result</div>' : ""}</div>`;
}
function itemsTableKeys(runId) {
  app.querySelectorAll("tr[data-item]").forEach(tr => tr.addEventListener("click", e => { if (e.target.tagName !== "A") location.hash = itemLink(runId, tr.dataset.item); }));
  tableKeys(app.querySelector("#items tbody"), tr => itemLink(runId, tr.dataset.item), "#/");
}
function wmGroupTable(name, rows, columns) {
  return `<h3>By ${esc(name)}</h3><div class="table-wrap"><table class="wm-group" data-group="${esc(name)}"><thead><tr><th>${esc(name)}</th><th class="num">Items</th><th class="num">Format errors</th>
    ${columns.map(m => `<th class="num">${esc(label(m))}</th>`).join("")}</tr></thead><tbody>${rows.map(row => `<tr><td>${esc(row.key)}</td><td class="num">${row.items}</td><td class="num">${row.format_errors}</td>
    ${columns.map(m => `<td class="num">${m === "cost_ratio" ? esc(row[m] === null || row[m] === undefined ? "–" : row[m].toFixed(2)) : ciText((row.intervals || {})[m] || { mean: row[m] })}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`;
}

function wmRunPage(runId, data) {
  const c = data.config || {}, s = data.summary, cols = data.columns;
  const rho = data.groups.rho || [];
  const series = [{ name: label(data.headline), color: COLORS[0], values: rho.map(r => r[data.headline] ?? null), intervals: rho.map(r => (r.intervals || {})[data.headline] || null) }];
  const itemRows = data.items.map(it => `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, it.item)}">${esc(it.item)}</a></td><td>${esc(it.domain)}</td><td>${esc(it.problem)}</td>
    <td class="num">${esc(it.rho)}</td><td>${esc(it.group || "")}</td><td>${it.score === null || it.score === undefined ? "–" : it.score === 1 ? '<span class="yes">yes</span>' : it.score === 0 ? '<span class="no">no</span>' : pct(it.score)}</td>
    <td class="no">${esc(it.format_error || "")}</td></tr>`).join("");
  app.innerHTML = runHeader(runId, c, [["task", data.task], ["rules", c.rules], ["render", c.render], ["form", data.task === "next-state" ? c.form : "–"],
      ["dataset", c.dataset], ["items", itemsText(s)], ["calls", s.calls], ["tokens", `${s.prompt_tokens} in, ${s.completion_tokens} out`],
      ["cost", money(s.cost)], ["infrastructure errors", s.infrastructure_errors], ["seed", c.seed], ["created", c.created]], s) +
    `<h2>${esc(data.task)}: all items (%, mean [95% interval], domains resampled)</h2>${wmGroupTable("all", [{ key: "all", ...data.all }], cols).replace("<h3>By all</h3>", "")}
    <div class="charts"><div class="card">${lineChart(series, rho.length, label(data.headline) + " vs rho (%, bars: 95% intervals)", rho.map(r => "rho " + r.key), "share of the plan the model handles")}</div></div>
    ${Object.entries(data.groups).map(([name, rows]) => wmGroupTable(name, rows, cols)).join("")}
    <h2>Items <span class="muted">(${data.items.length})</span></h2>
    <div class="table-wrap"><table id="items"><thead><tr><th>Item</th><th>Domain</th><th>Problem</th><th class="num">rho</th><th>Kind</th><th>${esc(label(data.headline))}</th><th>Format error</th></tr></thead><tbody>${itemRows}</tbody></table></div>`;
  bindCharts(app);
  itemsTableKeys(runId);
  ready("run");
}

function probeRunPage(runId, data) {
  const c = data.config || {}, s = data.summary, m = data.measures;
  const itemRows = data.items.map(it => `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, it.item)}">${esc(it.item)}</a></td><td>${esc(it.name || "")}</td>
    <td class="num">${pct(it.rate)}</td><td class="num">${esc(it.contaminated ?? "–")} / ${esc(it.counted ?? "–")}</td><td>${esc(it.finish_reason || "")}</td></tr>`).join("");
  app.innerHTML = runHeader(runId, c, [["kind", "contamination probe"], ["dataset", c.dataset], ["split", c.split], ["domains", `${s.finished_items}/${s.planned_items ?? "?"}`],
      ["prompt", `first ${m.prefix_tokens} GPT-2 tokens of the gold`], ["n-gram", `${m.n} tokens, ≤ ${m.max_mismatches} mismatches`], ["cost", money(s.cost)], ["created", c.created]], s) +
    `<h2>Measures</h2><table id="measures"><tbody><tr><th>Mean contamination rate</th><td class="num">${ciText(m.mean_rate)}</td></tr>
      <tr><th>Median rate</th><td class="num">${pct(m.median_rate)}</td></tr><tr><th>Domains above 50%</th><td class="num">${m.domains_above_half} of ${m.domains}</td></tr></tbody></table>
    <p class="muted">Rate: share of the gold domain's content n-grams that the model's continuation reproduces (paper section 3.4); mean [95% interval] over domains.</p>
    <div class="charts"><div class="card">${histogram(data.rates, "Contamination rate per domain", "rate (%)")}</div></div>
    <h2>Domains <span class="muted">(${data.items.length}, highest rate first)</span></h2>
    <div class="table-wrap"><table id="items"><thead><tr><th>Item</th><th>Name</th><th class="num">Rate</th><th class="num">Contaminated / counted n-grams</th><th>Finish</th></tr></thead><tbody>${itemRows}</tbody></table></div>`;
  bindCharts(app);
  itemsTableKeys(runId);
  ready("run");
}

function messagesBlock(messages, id) {
  return `<details id="${id}"><summary>prompt (${(messages || []).length} messages)</summary>${(messages || []).map(m => `<div class="msg"><div class="role">${esc(m.role)}</div><pre>${esc(m.content)}</pre></div>`).join("")}</details>`;
}
function jsonBlock(value) { return `<pre class="code">${esc(JSON.stringify(value, null, 1))}</pre>`; }

async function kindRunPage(runId, data) {
  // A kind with no page of its own: the run's headline values (GET /v1/runs), what its page
  // (its registration's page_module) gives, and its items with their values.
  const { items: listed } = await allRuns();
  const run = listed.find(r => r.id === runId) || {};
  const c = data.config || {}, s = run.summary || {};
  const rows = (Array.isArray(data.items) ? data.items : []).filter(it => it && typeof it === "object");
  const columns = [];
  rows.forEach(it => Object.entries(it).forEach(([k, v]) => { if (k !== "item" && isScalar(v) && !columns.includes(k)) columns.push(k); }));
  const facts = Object.entries(data).filter(([k, v]) => !["kind", "run_id"].includes(k) && isScalar(v));
  const headline = Object.entries(run.headline || {});
  app.innerHTML = runHeader(runId, c, [["kind", run.kind_label || data.kind], ["dataset", c.dataset], ["items", itemsText(s)],
      ["calls", s.calls], ["cost", money(s.cost)], ["created", c.created], ...facts], s) +
    (headline.length ? `<h2>Headline</h2><table id="headline"><tbody>${headline.map(([m, v]) => `<tr><th>${esc(label(m))}</th><td class="num">${numberText(v)}</td></tr>`).join("")}</tbody></table>` : "") +
    `<h2>Items <span class="muted">(${rows.length})</span></h2>
    <div class="table-wrap"><table id="items"><thead><tr><th>Item</th>${columns.map(k => `<th>${esc(label(k))}</th>`).join("")}</tr></thead><tbody>
    ${rows.map(it => `<tr class="clickable" data-item="${esc(it.item)}"><td><a href="${itemLink(runId, String(it.item))}">${esc(it.item)}</a></td>${columns.map(k => `<td>${valueText(it[k])}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`;
  itemsTableKeys(runId);
  ready("run");
}

function kindItemBody(item) {
  // A kind with no item page of its own: the logged record's fields, its scores first.
  const around = ["item", "run_id", "kind", "position", "count", "previous", "next"];
  const fields = Object.entries(item).filter(([k]) => !around.includes(k));
  const metrics = item.metrics && typeof item.metrics === "object" && !Array.isArray(item.metrics) ? Object.entries(item.metrics) : [];
  return `<h1>${esc(item.item)}</h1>
    <div class="card kv">${fields.filter(([, v]) => isScalar(v)).map(([k, v]) => `<div><span>${esc(k)}</span>${valueText(v)}</div>`).join("")}</div>
    ${metrics.length ? `<h2>Scores</h2><table id="item-scores"><tbody>${metrics.map(([m, v]) => `<tr><th>${esc(label(m))}</th><td>${isScalar(v) ? valueText(v) : jsonBlock(v)}</td></tr>`).join("")}</tbody></table>` : ""}
    ${fields.filter(([k, v]) => !isScalar(v) && !(k === "metrics" && metrics.length)).map(([k, v]) => `<h2>${esc(k)}</h2>${jsonBlock(v)}`).join("")}`;
}

function otherItemPage(runId, itemId, item) {
  const nav = `<div class="nav-items">
      ${item.previous !== null ? `<a id="prev" href="${itemLink(runId, item.previous)}">← ${esc(item.previous)}</a>` : '<span class="muted">← first</span>'}
      <span class="muted">${item.position + 1} / ${item.count}</span>
      ${item.next !== null ? `<a id="next" href="${itemLink(runId, item.next)}">${esc(item.next)} →</a>` : '<span class="muted">last →</span>'}</div>`;
  let body = "";
  if (item.kind === "wm") {
    const m = item.metrics || {};
    const verdict = m.correct === true || m.success === true || m.first_hit === 1 ? '<span class="badge valid verdict">right</span>'
      : m.correct === false || m.success === false ? '<span class="badge invalid verdict">wrong</span>' : "";
    body = `<h1>${esc(item.item)} ${verdict}</h1>
      <div class="card kv"><div><span>task</span>${esc(item.task)}</div><div><span>domain</span>${esc(item.domain)}</div><div><span>problem</span>${esc(item.problem)}</div>
        <div><span>rho</span>${esc(item.rho)}</div><div><span>steps before</span>${esc(item.prefix)} of ${esc(item.plan_length)}</div><div><span>kind</span>${esc(item.origin || m.kind || m.mutation || "")}</div>
        <div><span>cost</span>${money(item.cost)}</div></div>
      ${item.format_error ? `<div class="error-box" id="format-error">format error: ${esc(item.format_error)}</div>` : ""}
      <div class="grid2"><div><h2>Answer (as read)</h2>${jsonBlock(item.answer)}</div>
        <div><h2>Truth</h2>${item.truth ? jsonBlock(item.truth) : '<p class="muted">not in this log (runs made before the truth was logged)</p>'}</div></div>
      <h2>Verdict and scores</h2>${jsonBlock(item.metrics)}
      <h2>Calls</h2>${(item.calls || []).map((call, i) => `<h3>call ${i + 1}</h3>${messagesBlock(call.messages, "prompt-" + i)}<div class="msg"><div class="role">answer</div><pre>${esc(call.response)}</pre></div>`).join("")}`;
  } else if (item.kind === "problem") {
    body = `<h1>${esc(item.item)} <span class="muted">${esc(item.size || "")}, ${esc(item.style || "")}</span></h1>
      <div class="card kv"><div><span>rule</span>${esc(item.rule || "–")}</div><div><span>rounds</span>${esc(item.rounds_used)}</div><div><span>cost</span>${money(item.cost)}</div></div>
      <h2>Counterexample</h2><p id="counterexample">${esc((item.counterexample || {}).text || "none")}</p>
      <h2>Description</h2><div class="msg"><pre>${esc(item.description)}</pre></div>
      ${(item.rounds || []).map(r => `<h2>EC_${r.round}: parseable ${yesno((r.verdict || {}).parseable)}, solvable ${yesno((r.verdict || {}).solvable)}, equivalent ${yesno((r.verdict || {}).equivalent)}</h2>
        <div class="msg"><pre>${esc(r.problem || r.response)}</pre></div>${r.feedback ? `<div class="error-box">${esc(r.feedback)}</div>` : ""}`).join("")}`;
  } else if (item.kind === "judge") {
    body = `<h1>${esc(item.item)} <span class="muted">${esc(item.name || "")}</span></h1>
      <div class="card kv"><div><span>our verdict</span>${esc(item.verdict)}</div><div><span>judge</span>${esc(item.judge || "no rating")} (${esc(item.rating ?? "–")})</div>
        <div><span>epoch</span>${esc(item.epoch)}</div><div><span>round judged</span>${esc(item.round)}</div><div><span>cost</span>${money(item.cost)}</div></div>
      <h2>Our counterexample</h2><p id="counterexample">${esc(item.counterexample || "none: equivalent on every sampled state")}</p>
      ${messagesBlock(item.messages, "prompt")}
      <h2>Judge's answer</h2><div class="msg"><pre>${esc(item.response)}</pre></div>`;
  } else if (item.kind === "contamination") {
    body = `<h1>${esc(item.item)} <span class="muted">${esc(item.name || "")}</span></h1>
      <div class="card kv"><div><span>rate</span>${pct(item.rate)}%</div><div><span>contaminated / counted</span>${esc(item.contaminated)} / ${esc(item.counted)}</div>
        <div><span>finish</span>${esc(item.finish_reason || "")}</div><div><span>cost</span>${money(item.cost)}</div></div>
      ${messagesBlock(item.messages, "prompt")}
      <h2>Continuation</h2><div class="msg"><pre>${esc(item.continuation)}</pre></div>`;
  } else body = kindItemBody(item);
  app.innerHTML = nav + body;
  keyHandler = key => {
    if ((key === "j" || key === "ArrowRight") && item.next !== null) { location.hash = itemLink(runId, item.next); return true; }
    if ((key === "k" || key === "ArrowLeft") && item.previous !== null) { location.hash = itemLink(runId, item.previous); return true; }
    if (key === "u" || key === "Escape") { location.hash = runLink(runId); return true; }
    return false;
  };
  ready("item");
}

// ---------------------------------------------------------------------------------- routing

async function route() {
  keyHandler = null; hideTip();
  delete document.body.dataset.ready;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(p => p !== "").map(decodeURIComponent);
  try {
    if (parts.length === 0) await leaderboard();
    else if (parts[0] === "compare" && parts.length === 2) await compare(parts[1].split(",").filter(Boolean));
    else if (parts[0] === "run" && parts.length === 2) await runPage(parts[1]);
    else if (parts[0] === "protocols" && parts.length === 2) await protocolsPage(parts[1]);
    else if (parts[0] === "run" && parts[2] === "item" && (parts.length === 4 || (parts.length === 6 && parts[4] === "round"))) {
      if (state.lastRun !== parts[1]) state.cursor = 0;
      state.lastRun = parts[1];
      await itemPage(parts[1], parts[3], parts[5]);
    } else throw new Error(`no such page: #${location.hash.slice(1)} (try #/ for the list of runs)`);
    window.scrollTo(0, 0);
  } catch (err) {
    showError(err);
  }
}
document.addEventListener("keydown", event => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select") return;
  if (keyHandler && keyHandler(event.key)) event.preventDefault();
});
window.addEventListener("hashchange", route);
route();
