import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { jsonChunks } from '../json-chunks.ts';
import { textBatches } from '../text-batches.ts';

/**
 * The pieces every self-contained linesmith page shares (the backtest report, the sweep, the
 * live dashboard): uPlot's script and stylesheet inlined, HTML escaping, JSON safe inside a
 * `<script type="application/json">` element, and the chart helpers the page scripts use.
 */

let assets: { readonly js: string; readonly css: string } | undefined;

/** uPlot's script and stylesheet, read once from the installed package. */
export function uplotAssets(): { readonly js: string; readonly css: string } {
  if (!assets) {
    const require = createRequire(import.meta.url);
    const js = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
    const css = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
    // Guards, no-ops on the shipped files: nothing inside may end the element early.
    // `\x3C` is `<` in a JS string, template or regex alike.
    assets = { js: js.replace(/<(\/script|!--)/gi, '\\x3C$1'), css: css.replace(/<\/style/gi, '\\3C/style') };
  }
  return assets;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text and attribute values alike. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** JSON for a `<script type="application/json">` element: no `<`, `>` or `&` left raw, so neither `</script>` nor `<!--` can occur. */
export function scriptJson(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

/** JSON text (or any piece of it: each character is replaced on its own) made safe inside a `<script>` element. */
function scriptSafe(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Chart helpers for the page scripts (plain ES5, run in the browser). Times are seconds on
 * the x axis, drawn in UTC. An axis whose data has one value gets a range around it, not
 * uPlot's default span of years. Legends carry `tips` (game ids and the like) as the title
 * of their row, so ids show on hover only.
 */
export const CHART_JS = `
var PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f'];
var DASHES = [null, [6, 3], [2, 3], [10, 3, 2, 3]];
var charts = [];
function color(i) { return PALETTE[i % PALETTE.length]; }
/** Line i's colour, dashed once the palette comes round again: no two of the first forty lines look alike. */
function line(i, s) {
  s.stroke = color(i);
  var dash = DASHES[Math.floor(i / PALETTE.length) % DASHES.length];
  if (dash) s.dash = dash;
  return s;
}
function group(s) { return s.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }
function money(v) {
  if (v == null || !isFinite(v)) return '—';
  var c = Math.round(Math.abs(v) * 100);
  var s = '$' + group(String(Math.floor(c / 100))) + '.' + String(c % 100).padStart(2, '0');
  return v < 0 && c > 0 ? '-' + s : s;
}
function moneyValue(u, v) { return money(v); }
function moneyAxis() { return { size: 84, values: function (u, vals) { return vals.map(money); } }; }
function seconds(ms) { return ms / 1000; }
function tz(ts) { return uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); }
function utcShort(ms) { return new Date(ms).toISOString().slice(0, 16).replace('T', ' '); }
function empty(box, text) {
  var p = document.createElement('p');
  p.className = 'empty';
  p.textContent = text;
  box.appendChild(p);
}
function width(box) { return Math.max(300, box.clientWidth || 900); }
/** Tables [[t ms…], [y…]…] on one x axis: union of the times, null where a table has no row. */
function align(tables) {
  var seen = {}, xs = [];
  tables.forEach(function (t) { t.forEach(function (r) { if (!(r[0] in seen)) { seen[r[0]] = true; xs.push(r[0]); } }); });
  xs.sort(function (a, b) { return a - b; });
  var at = {};
  xs.forEach(function (x, i) { at[x] = i; });
  return { xs: xs, at: at };
}
function column(rows, at, n, col) {
  var ys = new Array(n).fill(null);
  rows.forEach(function (r) { var v = r[col]; ys[at[r[0]]] = v == null ? null : v; });
  return ys;
}
/** One x value: five minutes either side. */
function xRange(u, lo, hi) {
  if (lo == null || hi == null) return [0, 1];
  return lo === hi ? [lo - 300, hi + 300] : [lo, hi];
}
/** One y value: a tenth of it (at least 1) either side. */
function yRange(u, lo, hi) {
  if (lo == null || hi == null) return [0, 1];
  if (lo === hi) { var p = Math.max(1, Math.abs(lo) * 0.1); return [lo - p, hi + p]; }
  var pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}
function tips(u, list) {
  if (!u.root || !u.root.querySelectorAll) return;
  var rows = u.root.querySelectorAll('.u-legend .u-series');
  list.forEach(function (t, i) { if (t && rows[i + 1]) rows[i + 1].title = t; });
}
function plot(box, opts, d) {
  var h = opts.height || 300;
  var o = Object.assign({ width: width(box), height: h, tzDate: tz }, opts);
  o.scales = Object.assign({ x: { time: true, range: xRange }, y: { range: yRange } }, opts.scales || {});
  o.series = [{ label: 'time (UTC)' }].concat(opts.series);
  var u = new uPlot(o, d, box);
  charts.push({ u: u, box: box, h: h });
  if (opts.tips) tips(u, opts.tips);
  return u;
}
window.addEventListener('resize', function () {
  charts.forEach(function (c) { c.u.setSize({ width: width(c.box), height: c.h }); });
});
`;

/** One self-contained page: what differs between the report, the sweep and the dashboard. */
export interface HtmlPage {
  /** Plain text; escaped here. */
  readonly title: string;
  /** The page's own stylesheet, after uPlot's. */
  readonly css: string;
  /** A class for `<main>` (none when absent). */
  readonly mainClass?: string;
  /** The body's HTML, inside `<main>`. */
  readonly body: string;
  /** The footer's HTML. */
  readonly footer: string;
  /** Whether the page's script fetches from its own origin (the dashboard polls its server). */
  readonly connectsToSelf?: boolean;
  /** Data embedded as JSON in a `<script type="application/json">` element, read into `data`. */
  readonly data?: { readonly elementId: string; readonly value: unknown };
  /** The page's script (plain ES5), run after uPlot and CHART_JS in one strict function. */
  readonly script: string;
}

/**
 * The page around its parts: the head (charset, viewport, a Content-Security-Policy that
 * allows only inline scripts and styles, and data: images), uPlot inlined, then the page's
 * script. Nothing is loaded from elsewhere: a saved page opens as it was.
 */
export function htmlPage(p: HtmlPage): string {
  return [...htmlPageChunks(p)].join('');
}

/** Characters of the page's JSON made safe together. */
const DATA_BATCH = 1 << 16;

/**
 * The same page in pieces, its data written as JSON opened `dataDepth` levels deep
 * (json-chunks.ts), for a page too large to hold as one string.
 */
export function* htmlPageChunks(p: HtmlPage, dataDepth = 0): Generator<string> {
  const { js, css } = uplotAssets();
  const csp = [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    ...(p.connectsToSelf ? ["connect-src 'self'"] : []),
    'img-src data:',
  ].join('; ');
  const readData = p.data ? `var data = JSON.parse(document.getElementById('${p.data.elementId}').textContent);\n` : '';
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="linesmith">
<title>${esc(p.title)}</title>
<style>
${css}
</style>
<style>${p.css}</style>
</head>
<body>
<main${p.mainClass ? ` class="${p.mainClass}"` : ''}>
${p.body}
<footer>${p.footer}</footer>
</main>
`;
  if (p.data) {
    yield `<script type="application/json" id="${p.data.elementId}">`;
    // Made safe a batch at a time: five replacements per small piece would cost more than the writing.
    for (const batch of textBatches(jsonChunks(p.data.value, dataDepth), DATA_BATCH)) yield scriptSafe(batch);
    yield '</script>\n';
  }
  yield `<script>
${js}
</script>
<script>
(function () {
'use strict';
${readData}${CHART_JS}
${p.script}
})();
</script>
</body>
</html>
`;
}
