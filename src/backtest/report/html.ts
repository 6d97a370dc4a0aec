import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { toCents } from '../../money/rounding.ts';
import type { BacktestReport, BreakdownRow, MarkoutMetrics } from './types.ts';
import { strategyErrorsSection } from './strategy-errors-html.ts';

/**
 * The backtest report as one self-contained HTML file: it opens from disk, with no server
 * and no network. uPlot's script and stylesheet are inlined, the report itself is embedded
 * as JSON in a `<script type="application/json">` tag (every `<`, `>` and `&` written as a
 * `\u00XX` escape, so no string in it can close the tag), the tables are static HTML, and
 * a small inline script draws the charts from the embedded JSON. Every string that comes
 * from user data (strategy ids, game names, file names, params) is HTML-escaped, and the
 * charts set their labels as text, never as markup.
 */

/** One variant of a parameter sweep: its settings (`key` → value as given) and its report. */
export interface SweepRow {
  readonly variant: Readonly<Record<string, string>>;
  readonly report: BacktestReport;
}

/** What renderSweepHtml embeds per variant: the comparison needs no more than this. */
export interface SweepEmbeddedRow {
  readonly variant: Readonly<Record<string, string>>;
  readonly metrics: BacktestReport['metrics'];
  /** The variant's series.pnl: [t, settled, marked, total]. */
  readonly pnl: BacktestReport['series']['pnl'];
}

/** The id of the `<script type="application/json">` tag holding the data. */
export const HTML_DATA_ELEMENT_ID = 'linesmith-data';

// ------------------------------------------------------------ uPlot, inlined

let assets: { readonly js: string; readonly css: string } | undefined;

function uplotAssets(): { readonly js: string; readonly css: string } {
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

// ------------------------------------------------------------ escaping

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values alike. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** JSON for a `<script type="application/json">` element: no `<`, `>` or `&` left raw, so neither `</script>` nor `<!--` can occur. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

// ------------------------------------------------------------ numbers

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `$1,234.50`, `-$3.20`; `signed` adds `+` to a positive amount (P&L). */
function money(x: number, signed = false): string {
  if (!Number.isFinite(x)) return '—';
  const c = toCents(x);
  const abs = Math.abs(c);
  const s = `$${group(String(Math.floor(abs / 100)))}.${String(abs % 100).padStart(2, '0')}`;
  return c < 0 ? `-${s}` : signed && c > 0 ? `+${s}` : s;
}

const count = (x: number) => (Number.isFinite(x) ? group(String(Math.round(x))) : '—');

function fixed(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '—';
  const s = Math.abs(x).toFixed(digits);
  const [int = '0', frac] = s.split('.');
  const out = frac === undefined ? group(int) : `${group(int)}.${frac}`;
  return x < 0 && Number(s) !== 0 ? `-${out}` : out;
}

const percent = (x: number) => (Number.isFinite(x) ? `${fixed(x * 100)}%` : '—');

function utc(ms: number): string {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? d.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : '—';
}

function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : '', s % 60 > 0 || s === 0 ? `${s % 60} s` : ''];
  return parts.filter(Boolean).join(' ');
}

/** A config value as one line: `fixed (ms=50)`, `edge=0.02, size=10`. */
function describe(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  const kind = typeof o['kind'] === 'string' ? o['kind'] : null;
  const rest = Object.entries(o)
    .filter(([k]) => kind === null || k !== 'kind')
    .map(([k, x]) => `${k}=${typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)}`);
  if (kind === null) return rest.length > 0 ? rest.join(', ') : '—';
  return rest.length > 0 ? `${kind} (${rest.join(', ')})` : kind;
}

// ------------------------------------------------------------ cells

const sign = (x: number) => (toCents(x) > 0 ? 'pos' : toCents(x) < 0 ? 'neg' : '');
const cls = (...c: string[]) => {
  const s = c.filter(Boolean).join(' ');
  return s ? ` class="${s}"` : '';
};
const td = (text: string, c = '') => `<td${cls(c)}>${esc(text)}</td>`;
const tdNum = (text: string, c = '') => `<td${cls('num', c)}>${esc(text)}</td>`;
const tdPnl = (x: number) => tdNum(money(x, true), sign(x));
const tdMoney = (x: number) => tdNum(money(x));
const tdLiability = (x: number) => tdNum(money(x), sign(x));
const th = (text: string, numeric = false) => `<th${cls(numeric ? 'num' : '')}>${esc(text)}</th>`;

function table(head: readonly (readonly [string, boolean])[], rows: readonly string[], id?: string): string {
  const body = rows.length > 0 ? rows.join('\n') : `<tr><td class="empty" colspan="${head.length}">none</td></tr>`;
  return `<table class="t"${id ? ` id="${esc(id)}"` : ''}>
<thead><tr>${head.map(([h, n]) => th(h, n)).join('')}</tr></thead>
<tbody>
${body}
</tbody>
</table>`;
}

function kv(rows: readonly (readonly [string, string])[], c = 'kv'): string {
  return `<table class="t ${c}"><tbody>\n${rows.map(([k, v]) => `<tr><th>${esc(k)}</th>${v}</tr>`).join('\n')}\n</tbody></table>`;
}

// ------------------------------------------------------------ sections

const BREAKDOWN_HEAD: readonly (readonly [string, boolean])[] = [
  ['fills', true],
  ['maker volume', true],
  ['taker volume', true],
  ['settled P&L', true],
  ['marked P&L', true],
  ['total P&L', true],
];

const breakdownCells = (r: BreakdownRow) =>
  [tdNum(count(r.fills)), tdMoney(r.makerVolume), tdMoney(r.takerVolume), tdPnl(r.settledPnl), tdPnl(r.markedPnl), tdPnl(r.settledPnl + r.markedPnl)].join('');

function header(r: BacktestReport): string {
  const rec = r.run.recording;
  const strategies =
    r.run.strategies.length === 0
      ? '<span class="muted">none</span>'
      : `<ul class="plain">${r.run.strategies
          .map((s) => `<li><b>${esc(s.id)}</b> <span class="muted">${esc(s.module)}</span> <code>${esc(describe(s.params))}</code></li>`)
          .join('')}</ul>`;
  const files = rec.files.length === 0 ? '<span class="muted">none</span>' : `<ul class="plain">${rec.files.map((f) => `<li><code>${esc(f)}</code></li>`).join('')}</ul>`;
  const input = r.input;
  return `<header>
<h1>Backtest report · ${esc(r.run.config)}</h1>
<p class="muted">${esc(utc(rec.start))} → ${esc(utc(rec.end))} · ${esc(duration(rec.end - rec.start))} of exchange time${rec.complete ? '' : ' · <span class="neg">recording incomplete</span>'}</p>
</header>
<section id="run">
<h2>Run</h2>
${kv([
  ['config', td(r.run.config)],
  ['strategies', `<td>${strategies}</td>`],
  ['recording files', `<td>${files}</td>`],
  ['sessions', td(rec.sessions.join(', ') || '—')],
  ['seed', td(String(r.run.seed))],
  ['fill model', `<td><code>${esc(describe(r.run.fillModel))}</code></td>`],
  ['latency', `<td><code>${esc(describe(r.run.latency))}</code></td>`],
  ['balance', td(money(r.run.balance))],
  ['commission rate', td(percent(r.run.commission))],
  [
    'input',
    td(
      `${count(input.events)} events · ${count(input.priceFrames)} price frames · ${count(input.malformedFrames)} malformed · ${count(input.unknownFrameTypes)} of unknown type · ${count(input.badLines)} bad lines`,
    ),
  ],
])}
</section>`;
}

const markoutText = (m: MarkoutMetrics) => `${money(m.total, true)} (${percent(m.perStake)} of stake, ${count(m.fills)} fills)`;

function metricsSection(r: BacktestReport): string {
  const m = r.metrics;
  const pnl = kv(
    [
      ['settled P&L', tdPnl(m.pnl.settled)],
      ['marked P&L', tdPnl(m.pnl.marked)],
      ['total P&L', tdPnl(m.pnl.total)],
      ['commission paid', tdMoney(m.pnl.commissionPaid)],
      ['commission on open bets, at most', tdMoney(m.pnl.commissionAccrued)],
      ['max drawdown', tdNum(money(m.maxDrawdown), toCents(m.maxDrawdown) > 0 ? 'neg' : '')],
      ['max liability', tdLiability(m.maxLiability)],
    ],
    'kv metrics-table',
  );
  const volume = kv(
    [
      ['fills', tdNum(`${count(m.volume.fills)} (maker ${count(m.volume.makerFills)}, taker ${count(m.volume.takerFills)})`)],
      ['maker volume', tdMoney(m.volume.maker)],
      ['taker volume', tdMoney(m.volume.taker)],
      ['mark-out 5 s', tdNum(markoutText(m.markout['5s']), sign(m.markout['5s'].total))],
      ['mark-out 60 s', tdNum(markoutText(m.markout['60s']), sign(m.markout['60s'].total))],
    ],
    'kv metrics-table',
  );
  const orders = kv(
    [
      ['orders placed', tdNum(count(m.orders.placed))],
      ['orders cancelled', tdNum(count(m.orders.cancelled))],
      ['orders edited', tdNum(count(m.orders.edited))],
      ['edits replacing a partly filled order', tdNum(count(m.orders.editsReplacing))],
      ['edits refused', tdNum(count(m.orders.editsRejected))],
      ['refused by risk', tdNum(count(m.orders.refusedByRisk))],
      ['rejected by exchange', tdNum(count(m.orders.rejectedByExchange))],
      ['postArb', tdNum(count(m.orders.postArb))],
      ['fill ratio (orders)', tdNum(percent(m.orders.fillRatio))],
      ['fill ratio (stake)', tdNum(percent(m.orders.stakeFillRatio))],
    ],
    'kv metrics-table',
  );
  return `<section id="metrics">
<h2>Summary</h2>
<div class="metrics">
<div><h3>P&amp;L and risk</h3>${pnl}</div>
<div><h3>Volume and mark-outs</h3>${volume}</div>
<div><h3>Orders</h3>${orders}</div>
</div>
</section>`;
}

function notesSection(r: BacktestReport): string {
  const notes = r.notes.length === 0 ? '<p class="empty">none</p>' : `<ul class="notes">${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  const problems =
    r.input.problems.length === 0
      ? ''
      : `<details><summary>skipped input lines (${count(r.input.badLines)}; the first ${r.input.problems.length} listed)</summary><ul class="notes">${r.input.problems.map((p) => `<li><code>${esc(p)}</code></li>`).join('')}</ul></details>`;
  return `<section id="notes">
<h2>Notes</h2>
${notes}
${problems}
</section>`;
}

function gamesSection(r: BacktestReport): string {
  const rows = r.games.flatMap((g) => {
    const score = g.score ? `${g.score.away}–${g.score.home}` : '—';
    const title = `<td><b>${esc(g.name || g.gameID)}</b><br><span class="muted">${esc([g.league, g.gameID].filter(Boolean).join(' · '))}</span></td>`;
    const head = `<tr class="game">${title}${td(g.settlement, g.settlement === 'marked' ? 'warn' : '')}${tdNum(score)}${breakdownCells(g)}${tdLiability(g.maxLiability)}</tr>`;
    const subs = g.markets.map((mk) => `<tr class="sub">${td(mk.market)}<td></td><td></td>${breakdownCells(mk)}<td></td></tr>`);
    return [head, ...subs];
  });
  return `<section id="games">
<h2>Games</h2>
${table([['game / market', false], ['settlement', false], ['score (away–home)', true], ...BREAKDOWN_HEAD, ['max liability', true]], rows, 'games-table')}
</section>`;
}

function marketsSection(r: BacktestReport): string {
  const rows = r.markets.map((m) => `<tr>${td(m.market)}${breakdownCells(m)}</tr>`);
  return `<section id="markets">
<h2>Markets</h2>
${table([['market', false], ...BREAKDOWN_HEAD], rows, 'markets-table')}
</section>`;
}

function strategiesSection(r: BacktestReport): string {
  const modules = new Map(r.run.strategies.map((s) => [s.id, s.module]));
  const rows = r.strategies.map((s) => `<tr>${td(s.strategy || '(none)')}${td(modules.get(s.strategy) ?? '', 'muted')}${breakdownCells(s)}</tr>`);
  return `<section id="strategies">
<h2>Strategies</h2>
${table([['strategy', false], ['module', false], ...BREAKDOWN_HEAD], rows, 'strategies-table')}
</section>`;
}

function executionSection(r: BacktestReport): string {
  const entries = Object.entries(r.execution);
  if (entries.length === 0) return '';
  return `<section id="execution">
<h2>Simulated execution</h2>
${kv(
  entries.map(([k, v]) => [k, tdNum(Number.isInteger(v) ? count(v) : fixed(v))] as const),
  'kv compact',
)}
</section>`;
}

/** Per horizon over series.markouts: fills with a fair price, Σ value, mean, Σ value / Σ stake, share of fills worth more than 0. */
function markoutSummary(r: BacktestReport): string {
  const horizons = [
    ['at the fill', 2],
    ['5 s later', 3],
    ['60 s later', 4],
  ] as const;
  const rows = horizons.map(([label, col]) => {
    let n = 0;
    let total = 0;
    let stake = 0;
    let positive = 0;
    for (const row of r.series.markouts) {
      const v = row[col];
      if (v === null || v === undefined) continue;
      n++;
      total += v;
      stake += row[1] ?? 0;
      if (toCents(v) > 0) positive++;
    }
    return `<tr>${td(label)}${tdNum(count(n))}${tdPnl(total)}${n > 0 ? tdPnl(total / n) : tdNum('—')}${tdNum(stake > 0 ? percent(total / stake) : '—')}${tdNum(n > 0 ? percent(positive / n) : '—')}</tr>`;
  });
  return table(
    [
      ['value at fair', false],
      ['fills', true],
      ['total', true],
      ['mean per fill', true],
      ['per stake', true],
      ['fills worth > 0', true],
    ],
    rows,
    'markout-table',
  );
}

function chartsPnl(): string {
  return `<section id="pnl">
<h2>Cumulative P&amp;L</h2>
<p class="muted">Settled: graded bets net of commission. Marked: open bets valued at the consensus fair price. Sampled on the virtual clock.</p>
<div class="chart" id="chart-pnl"></div>
</section>`;
}

function chartsLiability(): string {
  return `<section id="liability">
<h2>Worst-case liability per game</h2>
<p class="muted">The most the account can lose on each game over every outcome (≤ 0), and the sum over the open games. A line ends when its game ends.</p>
<div class="chart" id="chart-liability"></div>
<div class="chart" id="chart-exposure"></div>
</section>`;
}

function chartsQuotes(r: BacktestReport): string {
  return `<section id="quotes">
<h2>Our quotes against the market</h2>
<p class="muted">Per game and book (${r.series.quotes.length} kept): our best listed odds (solid) against the best odds on the recorded market (dashed), per side, as a taker of that side gets them; higher is better for the taker. A gap: no quote.</p>
<div class="charts-grid" id="charts-quotes"></div>
</section>`;
}

function chartsMarkouts(r: BacktestReport): string {
  return `<section id="markouts">
<h2>Fill mark-outs</h2>
<p class="muted">Value of each fill at the consensus fair price 5 s and 60 s after it (positive: the fill was worth having). ${count(r.series.markouts.length)} fills.</p>
${markoutSummary(r)}
<div class="chart" id="chart-markouts"></div>
</section>`;
}

// ------------------------------------------------------------ page

const CSS = `
:root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--alt:#f7f8fa;--pos:#137333;--neg:#b3261e;--warn:#a15c00}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:#f2f4f7}
main{max-width:1240px;margin:0 auto;padding:20px 24px}
header h1{font-size:22px;margin:0 0 4px}
header p{margin:0}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 20px;margin:16px 0;overflow-x:auto}
h2{font-size:16px;margin:0 0 10px}
h3{font-size:13px;margin:0 0 6px;font-weight:600}
section>p.muted{margin:-4px 0 10px;font-size:12.5px}
table.t{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
table.t th,table.t td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
table.t thead th{font-size:12px;color:var(--muted);font-weight:600;border-bottom:2px solid var(--line);white-space:nowrap}
table.t .num{text-align:right;white-space:nowrap}
table.kv th{width:170px;color:var(--muted);font-weight:500;white-space:nowrap}
table.metrics-table th{width:auto}
table.compact{width:auto}
tr.game td{border-top:1px solid #d0d5dd}
tr.sub td{color:#475467;font-size:12.5px;background:var(--alt)}
tr.sub td:first-child{padding-left:26px}
tr.best td{font-weight:600;background:#f0f7f1}
.pos{color:var(--pos)}.neg{color:var(--neg)}.warn{color:var(--warn)}
.muted{color:var(--muted)}
.empty{color:var(--muted);font-style:italic}
ul.plain{list-style:none;margin:0;padding:0}
ul.notes{margin:0;padding-left:20px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--alt);padding:1px 4px;border-radius:3px;word-break:break-all}
details{margin-top:8px}
summary{cursor:pointer;color:var(--muted)}
.metrics{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,330px),1fr));gap:8px 24px}
.chart{min-width:0;margin:8px 0}
.charts-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,540px),1fr));gap:12px 20px}
.charts-grid>div{min-width:0}
.uplot .u-title{font-size:13px;font-weight:600}
.uplot .u-legend{font-size:12px}
footer{color:var(--muted);font-size:12px;text-align:center;margin:20px 0}
`;

/** Helpers shared by the page scripts; `data` is the embedded JSON. */
const COMMON_JS = `
var data = JSON.parse(document.getElementById('${HTML_DATA_ELEMENT_ID}').textContent);
var PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f'];
var charts = [];
function color(i) { return PALETTE[i % PALETTE.length]; }
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
function plot(box, opts, d) {
  var h = opts.height || 300;
  var o = Object.assign({ width: width(box), height: h, tzDate: tz, scales: { x: { time: true } } }, opts);
  o.series = [{ label: 'time (UTC)' }].concat(opts.series);
  var u = new uPlot(o, d, box);
  charts.push({ u: u, box: box, h: h });
  return u;
}
window.addEventListener('resize', function () {
  charts.forEach(function (c) { c.u.setSize({ width: width(c.box), height: c.h }); });
});
`;

const REPORT_JS = `
var names = {};
data.games.forEach(function (g) { names[g.gameID] = g.name ? g.name + ' (' + g.gameID + ')' : g.gameID; });
function gameName(id) { return Object.prototype.hasOwnProperty.call(names, id) ? names[id] : id; }

(function pnl() {
  var box = document.getElementById('chart-pnl');
  var rows = data.series.pnl;
  if (rows.length === 0) return empty(box, 'no samples');
  var d = [rows.map(function (r) { return seconds(r[0]); })];
  [1, 2, 3].forEach(function (c) { d.push(rows.map(function (r) { return r[c]; })); });
  plot(box, {
    series: [
      { label: 'settled', stroke: '#1f77b4', width: 1.5, value: moneyValue },
      { label: 'marked', stroke: '#ff7f0e', width: 1.5, value: moneyValue },
      { label: 'total', stroke: '#111827', width: 2.5, value: moneyValue },
    ],
    axes: [{}, moneyAxis()],
  }, d);
})();

(function liability() {
  var ids = Object.keys(data.series.liability);
  var boxes = [document.getElementById('chart-liability'), document.getElementById('chart-exposure')];
  if (ids.length === 0) return empty(boxes[0], 'no samples');
  var tables = ids.map(function (id) { return data.series.liability[id]; });
  var a = align(tables);
  var titles = ['With resting orders', 'Matched bets only'];
  [1, 2].forEach(function (col, k) {
    var d = [a.xs.map(seconds)];
    tables.forEach(function (rows) { d.push(column(rows, a.at, a.xs.length, col)); });
    var sum = a.xs.map(function (x, i) {
      var s = 0;
      for (var j = 1; j < d.length; j++) if (d[j][i] != null) s += d[j][i];
      return s;
    });
    var series = ids.map(function (id, i) { return { label: gameName(id), stroke: color(i), width: 1.5, value: moneyValue }; });
    series.push({ label: 'all games', stroke: '#111827', width: 2, dash: [6, 4], value: moneyValue });
    d.push(sum);
    plot(boxes[k], { title: titles[k], height: 280, series: series, axes: [{}, moneyAxis()] }, d);
  });
})();

function rank(o) { return o == null ? null : o >= 100 ? o - 100 : o + 100; }
function odds(r) { if (r == null) return '—'; r = Math.round(r); return r >= 0 ? '+' + (r + 100) : String(r - 100); }
function sides(bookKey) {
  var kind = bookKey.split(':')[0];
  return kind === 'total' ? ['over', 'under'] : kind === 'moneyline1x2' ? ['yes', 'no'] : ['home', 'away'];
}

(function quotes() {
  var grid = document.getElementById('charts-quotes');
  if (data.series.quotes.length === 0) return empty(grid, 'no quotes sampled');
  data.series.quotes.forEach(function (q) {
    var card = document.createElement('div');
    var title = document.createElement('h3');
    title.textContent = gameName(q.gameID) + ' · ' + q.bookKey;
    card.appendChild(title);
    var box = document.createElement('div');
    card.appendChild(box);
    grid.appendChild(card);
    if (q.rows.length === 0) return empty(box, 'no samples');
    var d = [q.rows.map(function (r) { return seconds(r[0]); })];
    [1, 2, 3, 4].forEach(function (c) { d.push(q.rows.map(function (r) { return rank(r[c]); })); });
    var s = sides(q.bookKey);
    var v = function (u, x) { return odds(x); };
    plot(box, {
      height: 220,
      series: [
        { label: 'ours ' + s[0], stroke: '#1f77b4', width: 2, value: v },
        { label: 'market ' + s[0], stroke: '#1f77b4', width: 1, dash: [5, 4], value: v },
        { label: 'ours ' + s[1], stroke: '#d62728', width: 2, value: v },
        { label: 'market ' + s[1], stroke: '#d62728', width: 1, dash: [5, 4], value: v },
      ],
      axes: [{}, { size: 56, values: function (u, vals) { return vals.map(odds); } }],
    }, d);
  });
})();

(function markouts() {
  var box = document.getElementById('chart-markouts');
  var rows = data.series.markouts.slice().sort(function (a, b) { return a[0] - b[0]; });
  if (rows.length === 0) return empty(box, 'no fills');
  var d = [rows.map(function (r) { return seconds(r[0]); })];
  [3, 4].forEach(function (c) { d.push(rows.map(function (r) { return r[c] == null ? null : r[c]; })); });
  function dots(label, c) {
    return { label: label, stroke: c, fill: c, value: moneyValue, paths: function () { return null; }, points: { show: true, size: 6, stroke: c, fill: c } };
  }
  plot(box, { height: 300, series: [dots('value 5 s later', '#1f77b4'), dots('value 60 s later', '#d62728')], axes: [{}, moneyAxis()] }, d);
})();
`;

const SWEEP_JS = `
(function overlay() {
  var box = document.getElementById('chart-sweep');
  var rows = data.rows;
  if (rows.length === 0 || rows.every(function (r) { return r.pnl.length === 0; })) return empty(box, 'no samples');
  var a = align(rows.map(function (r) { return r.pnl; }));
  var d = [a.xs.map(seconds)];
  var series = rows.map(function (r, i) {
    d.push(column(r.pnl, a.at, a.xs.length, 3));
    var keys = Object.keys(r.variant);
    var label = '#' + (i + 1) + (keys.length ? ' ' + keys.map(function (k) { return k + '=' + r.variant[k]; }).join(' ') : '');
    return { label: label, stroke: color(i), width: 1.75, spanGaps: true, value: moneyValue };
  });
  plot(box, { height: 360, series: series, axes: [{}, moneyAxis()] }, d);
})();
`;

function page(title: string, body: string, data: unknown, pageJs: string): string {
  const { js, css } = uplotAssets();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="linesmith">
<title>${esc(title)}</title>
<style>
${css}
</style>
<style>${CSS}</style>
</head>
<body>
<main>
${body}
<footer>linesmith backtest · times in UTC · every figure from the virtual clock and the recording</footer>
</main>
<script type="application/json" id="${HTML_DATA_ELEMENT_ID}">${scriptJson(data)}</script>
<script>
${js}
</script>
<script>
(function () {
'use strict';
${COMMON_JS}
${pageJs}
})();
</script>
</body>
</html>
`;
}

/** The report as one self-contained HTML page (tables, notes, charts; the report embedded as JSON). */
export function renderHtmlReport(report: BacktestReport): string {
  const body = [
    header(report),
    metricsSection(report),
    strategyErrorsSection(report),
    notesSection(report),
    chartsPnl(),
    chartsLiability(),
    gamesSection(report),
    marketsSection(report),
    strategiesSection(report),
    chartsQuotes(report),
    chartsMarkouts(report),
    executionSection(report),
  ]
    .filter(Boolean)
    .join('\n');
  return page(`Backtest · ${report.run.config}`, body, report, REPORT_JS);
}

/** The variants' settings in the order they first appear. */
function variantKeys(rows: readonly SweepRow[]): string[] {
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r.variant)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/**
 * A parameter sweep as one self-contained HTML page: a table comparing the variants and
 * their cumulative total P&L overlaid. Embeds, per variant, its settings, metrics and
 * series.pnl (SweepEmbeddedRow), not the whole report.
 */
export function renderSweepHtml(rows: readonly SweepRow[]): string {
  const keys = variantKeys(rows);
  const best = rows.length > 0 ? Math.max(...rows.map((r) => toCents(r.report.metrics.pnl.total))) : 0;
  const body = rows.map((r, i) => {
    const m = r.report.metrics;
    const settings = keys.map((k) => {
      const v = r.variant[k];
      return v === undefined ? td('—', 'muted') : td(v);
    });
    const mo = (x: MarkoutMetrics) => tdNum(`${money(x.total, true)} (${percent(x.perStake)})`, sign(x.total));
    return `<tr${toCents(m.pnl.total) === best && rows.length > 1 ? ' class="best"' : ''}>${tdNum(String(i + 1))}${settings.join('')}${tdPnl(m.pnl.total)}${tdPnl(m.pnl.settled)}${tdPnl(m.pnl.marked)}${tdMoney(m.pnl.commissionPaid)}${tdMoney(m.pnl.commissionAccrued)}${tdNum(count(m.volume.fills))}${tdMoney(m.volume.maker)}${tdMoney(m.volume.taker)}${tdNum(percent(m.orders.fillRatio))}${mo(m.markout['5s'])}${mo(m.markout['60s'])}${tdNum(money(m.maxDrawdown), toCents(m.maxDrawdown) > 0 ? 'neg' : '')}${tdLiability(m.maxLiability)}</tr>`;
  });
  const head: (readonly [string, boolean])[] = [
    ['#', true],
    ...keys.map((k) => [k, false] as const),
    ['total P&L', true],
    ['settled P&L', true],
    ['marked P&L', true],
    ['commission paid', true],
    ['commission on open bets (max)', true],
    ['fills', true],
    ['maker volume', true],
    ['taker volume', true],
    ['fill ratio', true],
    ['mark-out 5 s', true],
    ['mark-out 60 s', true],
    ['max drawdown', true],
    ['max liability', true],
  ];
  const first = rows[0]?.report;
  const configs = [...new Set(rows.map((r) => r.report.run.config))];
  const files = [...new Set(rows.flatMap((r) => r.report.run.recording.files))];
  const strategies = [...new Set(rows.flatMap((r) => r.report.run.strategies.map((s) => s.id)))];
  const info = first
    ? kv([
        ['config', td(configs.join(', '))],
        ['strategies', td(strategies.join(', ') || '—')],
        ['recording files', `<td><ul class="plain">${files.map((f) => `<li><code>${esc(f)}</code></li>`).join('')}</ul></td>`],
        ['recording', td(`${utc(first.run.recording.start)} → ${utc(first.run.recording.end)} · ${duration(first.run.recording.end - first.run.recording.start)}`)],
        ['variants', td(String(rows.length))],
      ])
    : '<p class="empty">no variants</p>';
  const html = `<header>
<h1>Parameter sweep · ${esc(configs.join(', ') || 'no variants')}</h1>
<p class="muted">${rows.length} variant${rows.length === 1 ? '' : 's'}; settled P&amp;L net of the commission paid, marked P&amp;L net of the expected commission on open taker bets (the column beside it: the most those can still be charged); mark-outs as total value (per stake); the best total P&amp;L in bold</p>
</header>
<section id="sweep-run">
<h2>Run</h2>
${info}
</section>
<section id="sweep">
<h2>Variants</h2>
${table(head, body, 'sweep-table')}
</section>
<section id="sweep-pnl">
<h2>Cumulative total P&amp;L per variant</h2>
<div class="chart" id="chart-sweep"></div>
</section>`;
  const data: { readonly rows: readonly SweepEmbeddedRow[] } = { rows: rows.map((r) => ({ variant: r.variant, metrics: r.report.metrics, pnl: r.report.series.pnl })) };
  return page(`Sweep · ${configs.join(', ')}`, html, data, SWEEP_JS);
}
