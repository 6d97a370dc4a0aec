import { toCents } from '../../money/rounding.ts';
import { esc, htmlPageChunks } from '../../shared/html/page.ts';
import { REPORT_JS, SWEEP_JS } from './html-scripts.ts';
import type { BacktestReport, BreakdownRow, FillRow, MarkoutMetrics, ReportExtras } from './types.ts';
import { strategyErrorsSection } from './strategy-errors-html.ts';

/**
 * The backtest report as one self-contained HTML file: it opens from disk, with no server
 * and no network. uPlot's script and stylesheet are inlined, the data is embedded as JSON in
 * a `<script type="application/json">` tag (every `<`, `>` and `&` written as a `\u00XX`
 * escape, so no string in it can close the tag), the tables are static HTML, and a small
 * inline script draws the charts from the embedded JSON. Every string that comes from user
 * data (strategy ids, game names, file names, params) is HTML-escaped, and the charts set
 * their labels as text, never as markup.
 */

/** One variant of a parameter sweep: its settings (`key` → value as given), its report, and the link to its own report.html. */
export interface SweepRow {
  readonly variant: Readonly<Record<string, string>>;
  readonly report: BacktestReport;
  /** The variant's report.html, relative to sweep.html; absent: no link. */
  readonly href?: string;
}

/** What renderSweepHtml embeds per variant: the comparison needs no more than this. */
export interface SweepEmbeddedRow {
  readonly variant: Readonly<Record<string, string>>;
  readonly metrics: BacktestReport['metrics'];
  /** The variant's series.pnl: [t, settled, marked, total]. */
  readonly pnl: BacktestReport['series']['pnl'];
  /** The index of the first earlier variant with the very same P&L series; null: none. */
  readonly sameAs: number | null;
  /** `margin=0.02 size=25`: the settings with the short keys. */
  readonly label: string;
}

/** One of our fills as report.html draws it: [t, gameID, book key, side the taker took, odds the taker got, 1 maker / 0 taker, stake, strategy]. */
export type PageFill = readonly [number, string, string, 0 | 1, number, 0 | 1, number, string];

/** What report.html embeds. */
export interface ReportPageData {
  readonly report: BacktestReport;
  readonly extras: ReportExtras | null;
  readonly fills: readonly PageFill[];
}

/** What report.html draws beyond report.json; without it the page draws what the report holds. */
export interface ReportHtmlInput {
  readonly extras?: ReportExtras;
  readonly fills?: readonly FillRow[];
  /** The fills as the page keeps them (pageFill), made as they came: instead of `fills` when those were not kept. */
  readonly pageFills?: readonly PageFill[];
}

/** The id of the `<script type="application/json">` tag holding the data. */
export const HTML_DATA_ELEMENT_ID = 'linesmith-data';

/** Side 0 is home, over, a 1x2 outcome's yes (markets/types sideIndexOf), read from the fill's selection label. */
function sideOfLabel(selection: string): 0 | 1 {
  return /^(home|over)\b|: yes$/.test(selection) ? 0 : 1;
}

const invert = (odds: number) => (odds === 100 || odds === -100 ? 100 : -odds);

/** A fill where the quote chart draws it: a maker fill of ours at the odds its taker got, on the side they took; a taker fill at ours. */
export function pageFill(f: FillRow): PageFill {
  const side = sideOfLabel(f.selection);
  const maker = f.origin === 'offer';
  return [
    f.t,
    f.gameID,
    f.market,
    maker ? ((1 - side) as 0 | 1) : side,
    maker ? invert(f.odds) : f.odds,
    maker ? 1 : 0,
    f.amount,
    f.strategy,
  ];
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
  return Number.isFinite(d.getTime())
    ? d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC')
    : '—';
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
/** Two figures in one cell, the second muted under the first: both escaped. */
const tdTwo = (first: string, second: string, c = '') =>
  `<td${cls('num', c)}>${esc(first)}<br><span class="muted">${esc(second)}</span></td>`;
const tdPnl = (x: number) => tdNum(money(x, true), sign(x));
const tdMoney = (x: number) => tdNum(money(x));
const tdLiability = (x: number) => tdNum(money(x), sign(x));
const th = (text: string, numeric = false) => `<th${cls(numeric ? 'num' : '')}>${esc(text)}</th>`;

/** `tips`: the hover text of the first head cells after the first (the sweep's full key paths). */
function table(
  head: readonly (readonly [string, boolean])[],
  rows: readonly string[],
  id?: string,
  tips: readonly string[] = [],
): string {
  const body = rows.length > 0 ? rows.join('\n') : `<tr><td class="empty" colspan="${head.length}">none</td></tr>`;
  const cell = ([h, n]: readonly [string, boolean], i: number) => {
    const tip = i > 0 ? tips[i - 1] : undefined;
    return tip === undefined ? th(h, n) : `<th${cls(n ? 'num' : '')} title="${esc(tip)}">${esc(h)}</th>`;
  };
  return `<table class="t"${id ? ` id="${esc(id)}"` : ''}>
<thead><tr>${head.map(cell).join('')}</tr></thead>
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
  [
    tdNum(count(r.fills)),
    tdMoney(r.makerVolume),
    tdMoney(r.takerVolume),
    tdPnl(r.settledPnl),
    tdPnl(r.markedPnl),
    tdPnl(r.settledPnl + r.markedPnl),
  ].join('');

function header(r: BacktestReport): string {
  const rec = r.run.recording;
  const strategies =
    r.run.strategies.length === 0
      ? '<span class="muted">none</span>'
      : `<ul class="plain">${r.run.strategies
          .map(
            (s) =>
              `<li><b>${esc(s.id)}</b> <span class="muted">${esc(s.module)}</span> <code>${esc(describe(s.params))}</code></li>`,
          )
          .join('')}</ul>`;
  const files =
    rec.files.length === 0
      ? '<span class="muted">none</span>'
      : `<ul class="plain">${rec.files.map((f) => `<li><code>${esc(f)}</code></li>`).join('')}</ul>`;
  const input = r.input;
  const incomplete = rec.complete ? '' : ' · <span class="neg">recording incomplete</span>';
  return `<header>
<h1>Backtest report · ${esc(r.run.config)}</h1>
<p class="muted">${esc(utc(rec.start))} → ${esc(utc(rec.end))} · ${esc(duration(rec.end - rec.start))} of exchange time${incomplete}</p>
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
      `${count(input.events)} events · ${count(input.priceFrames)} price frames · ` +
        `${count(input.malformedFrames)} malformed · ${count(input.unknownFrameTypes)} of unknown type · ` +
        `${count(input.badLines)} bad lines`,
    ),
  ],
])}
</section>`;
}

const markoutText = (m: MarkoutMetrics) =>
  `${money(m.total, true)} (${percent(m.perStake)} of stake, ${count(m.fills)} fills)`;

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
      [
        'fills',
        tdNum(`${count(m.volume.fills)} (maker ${count(m.volume.makerFills)}, taker ${count(m.volume.takerFills)})`),
      ],
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
      ['taker orders with postArb (their rest may stay as an offer)', tdNum(count(m.orders.postArb))],
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
  const notes =
    r.notes.length === 0
      ? '<p class="empty">none</p>'
      : `<ul class="notes">${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  const problems =
    r.input.problems.length === 0
      ? ''
      : `<details><summary>skipped input lines (${count(r.input.badLines)}; the first ` +
        `${r.input.problems.length} listed)</summary>` +
        `<ul class="notes">${r.input.problems.map((p) => `<li><code>${esc(p)}</code></li>`).join('')}</ul></details>`;
  return `<section id="notes">
<h2>Notes</h2>
${notes}
${problems}
</section>`;
}

function gamesSection(r: BacktestReport): string {
  const rows = r.games.flatMap((g) => {
    const score = g.score ? `${g.score.away}–${g.score.home}` : '—';
    const title =
      `<td title="${esc(`game ${g.gameID}`)}"><b>${esc(g.name || `game ${g.gameID}`)}</b><br>` +
      `<span class="muted">${esc(g.league || 'league unknown')}</span></td>`;
    const settlement = td(g.settlement, g.settlement === 'marked' ? 'warn' : '');
    const head = `<tr class="game">${title}${settlement}${tdNum(score)}${breakdownCells(g)}${tdLiability(g.maxLiability)}</tr>`;
    const subs = g.markets.map(
      (mk) => `<tr class="sub">${td(mk.market)}<td></td><td></td>${breakdownCells(mk)}<td></td></tr>`,
    );
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
  const rows = r.strategies.map(
    (s) => `<tr>${td(s.strategy || '(none)')}${td(modules.get(s.strategy) ?? '', 'muted')}${breakdownCells(s)}</tr>`,
  );
  return `<section id="strategies">
<h2>Strategies</h2>
${table([['strategy', false], ['module', false], ...BREAKDOWN_HEAD], rows, 'strategies-table')}
</section>`;
}

/** The simulated venue's counters as a reader names them; a counter not listed shows its own name. */
const EXECUTION_NAMES: Readonly<Record<string, readonly [string, string, 'count' | 'money']>> = {
  mirrored: [
    'recorded orders copied in',
    'recorded orders put into the simulated book for one of our crossing orders to meet',
    'count',
  ],
  mirrorRefused: [
    'recorded orders not copied in',
    'recorded orders that crossed a resting order of ours, so could not be put in (the book would cross)',
    'count',
  ],
  passiveFills: ['resting orders filled', 'our resting orders filled by recorded takers', 'count'],
  passiveStake: ['stake filled while resting', 'the stake of those fills', 'money'],
  takenStake: ['recorded stake taken', 'recorded liquidity our crossing orders took', 'money'],
};

function executionSection(r: BacktestReport): string {
  const entries = Object.entries(r.execution);
  if (entries.length === 0) return '';
  const rows = entries.map(([k, v]) => {
    const [name, what, unit] = EXECUTION_NAMES[k] ?? [k, '', 'count'];
    const value = unit === 'money' ? money(v) : Number.isInteger(v) ? count(v) : fixed(v);
    return `<tr><th title="${esc(k)}">${esc(name)}</th>${tdNum(value)}<td class="muted">${esc(what)}</td></tr>`;
  });
  return `<section id="execution">
<h2>Simulated execution</h2>
<table class="t kv compact"><tbody>
${rows.join('\n')}
</tbody></table>
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
    const mean = n > 0 ? tdPnl(total / n) : tdNum('—');
    const perStake = tdNum(stake > 0 ? percent(total / stake) : '—');
    const positiveShare = tdNum(n > 0 ? percent(positive / n) : '—');
    return `<tr>${td(label)}${tdNum(count(n))}${tdPnl(total)}${mean}${perStake}${positiveShare}</tr>`;
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
<div class="chart" id="chart-drawdown"></div>
<div class="charts-grid">
<div><h3>Total P&amp;L per strategy</h3><div class="chart" id="chart-pnl-strategy"></div></div>
<div><h3>Total P&amp;L per league</h3><div class="chart" id="chart-pnl-league"></div></div>
</div>
</section>`;
}

const POSITIONS_NOTE =
  'Per game (the twelve with the deepest worst case): the most the account can lose on it with every ' +
  'resting order filled, the same for matched bets only, and the stake we have matched on it. ' +
  "Hover a title for the game's id.";

function chartsPositions(): string {
  return `<section id="positions">
<h2>Position and worst case per game</h2>
<p class="muted">${POSITIONS_NOTE}</p>
<div class="charts-grid" id="charts-positions"></div>
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

const QUOTES_NOTE =
  'our best listed odds (solid) against the best odds on the recorded market (dashed), per side, as a ' +
  'taker of that side gets them, drawn as implied probability (lower is a better price for the taker; ' +
  'the legend gives the American odds). Dots: our fills, at the odds their taker got. A gap: no quote.';

function chartsQuotes(r: BacktestReport): string {
  return `<section id="quotes">
<h2>Our quotes against the market</h2>
<p class="muted">Per game and book (${r.series.quotes.length} kept): ${QUOTES_NOTE}</p>
<div class="charts-grid" id="charts-quotes"></div>
</section>`;
}

const MARKOUTS_NOTE =
  'Value of each fill at the consensus fair price 5 s and 60 s after it (positive: the fill was worth having).';

function chartsMarkouts(r: BacktestReport): string {
  return `<section id="markouts">
<h2>Fill mark-outs</h2>
<p class="muted">${MARKOUTS_NOTE} ${count(r.series.markouts.length)} fills.</p>
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
main.wide{max-width:1360px;padding:16px 12px}
main.wide section{padding:12px 12px}
#sweep-table{font-size:12.5px}
#sweep-table th,#sweep-table td{padding:3px 5px}
#sweep-table thead th{white-space:normal;vertical-align:bottom;max-width:110px}
#sweep-table td{overflow-wrap:anywhere}
table.heatmap{width:auto}
table.heatmap td.heat{min-width:96px;text-align:center}
table.heatmap td.heat a{color:inherit;font-weight:600}
`;

function page(title: string, body: string, data: unknown, pageJs: string, mainClass = ''): string {
  return [...pageChunks(title, body, data, pageJs, mainClass)].join('');
}

function pageChunks(title: string, body: string, data: unknown, pageJs: string, mainClass = '', dataDepth = 0) {
  return htmlPageChunks(
    {
      title,
      css: CSS,
      ...(mainClass ? { mainClass } : {}),
      body,
      footer: 'linesmith backtest · times in UTC · every figure from the virtual clock and the recording',
      data: { elementId: HTML_DATA_ELEMENT_ID, value: data },
      script: pageJs,
    },
    dataDepth,
  );
}

/** The report as one self-contained HTML page (tables, notes, charts; the report, extras and fills embedded as JSON). */
export function renderHtmlReport(report: BacktestReport, input: ReportHtmlInput = {}): string {
  return [...renderHtmlReportChunks(report, input)].join('');
}

/**
 * The same page in pieces, for writing to a file: the embedded report is opened down to each
 * game's liability series (REPORT_JSON_DEPTH), so no piece is the whole report's JSON.
 */
export function renderHtmlReportChunks(report: BacktestReport, input: ReportHtmlInput = {}): Iterable<string> {
  const body = [
    header(report),
    metricsSection(report),
    strategyErrorsSection(report),
    notesSection(report),
    chartsPnl(),
    chartsLiability(),
    chartsPositions(),
    gamesSection(report),
    marketsSection(report),
    strategiesSection(report),
    chartsQuotes(report),
    chartsMarkouts(report),
    executionSection(report),
  ]
    .filter(Boolean)
    .join('\n');
  const data: ReportPageData = {
    report,
    extras: input.extras ?? null,
    fills: input.pageFills ?? (input.fills ?? []).map(pageFill),
  };
  return pageChunks(`Backtest · ${report.run.config}`, body, data, REPORT_JS, '', REPORT_JSON_DEPTH + 1);
}

/** How deep report.json is opened when written in pieces: the report, its series, each series' games. */
export const REPORT_JSON_DEPTH = 3;

/**
 * Each swept key as the table heads it: the dotted path less the segments every key shares
 * in front (`strategies.a.params.margin` and `strategies.a.params.size` become `margin` and
 * `size`); the full path is on hover.
 */
export function shortKeys(keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  const parts = keys.map((k) => k.split('.'));
  let shared = 0;
  while (parts.every((p) => p.length > shared + 1 && p[shared] === parts[0]![shared])) shared++;
  if (keys.length === 1) shared = Math.max(0, parts[0]!.length - 1);
  return parts.map((p) => p.slice(shared).join('.'));
}

/** The variants' settings in the order they first appear. */
function variantKeys(rows: readonly SweepRow[]): string[] {
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r.variant)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** A variant's settings with the short keys, in the order of `keys`. */
function variantText(v: Readonly<Record<string, string>>, keys: readonly string[]): string {
  const short = shortKeys(keys);
  return keys
    .map((k, i) => (v[k] === undefined ? '' : `${short[i]}=${v[k]}`))
    .filter(Boolean)
    .join(' ');
}

/** Per row, the index of the first earlier row with the very same P&L over time (their lines would coincide); null: none. */
function sameResults(rows: readonly SweepRow[]): (number | null)[] {
  const first = new Map<string, number>();
  return rows.map((r, i) => {
    const key = JSON.stringify(r.report.series.pnl);
    const at = first.get(key);
    if (at === undefined) first.set(key, i);
    return at ?? null;
  });
}

/** Diverging background for a P&L cell: green above 0, red below, the strongest at the largest magnitude. */
function heat(x: number, scale: number): string {
  if (scale <= 0 || toCents(x) === 0) return '#f7f8fa';
  const k = Math.min(1, Math.abs(x) / scale);
  // White blended towards the colour: a fifth of the way at the least, three quarters at the most.
  const mix = (c: number) =>
    Math.round(255 + (c - 255) * (0.2 + 0.55 * k))
      .toString(16)
      .padStart(2, '0');
  return x > 0 ? `#${mix(19)}${mix(115)}${mix(51)}` : `#${mix(179)}${mix(38)}${mix(30)}`;
}

/** With exactly two swept keys: total P&L over the grid, the first key down, the second across. */
const HEATMAP_NOTE = "green a gain, red a loss, the stronger the larger. A cell links to the variant's report.";

function heatmapSection(rows: readonly SweepRow[], keys: readonly string[]): string {
  if (keys.length !== 2) return '';
  const [down, across] = keys as [string, string];
  const [downName, acrossName] = shortKeys(keys) as [string, string];
  const values = (k: string) => [...new Set(rows.map((r) => r.variant[k]).filter((v): v is string => v !== undefined))];
  const ys = values(down);
  const xs = values(across);
  const scale = Math.max(0, ...rows.map((r) => Math.abs(r.report.metrics.pnl.total)));
  const cellOf = (y: string, x: string) => {
    const i = rows.findIndex((r) => r.variant[down] === y && r.variant[across] === x);
    const r = rows[i];
    if (!r) return '<td class="num muted">—</td>';
    const text = `${money(r.report.metrics.pnl.total, true)}`;
    const link = r.href ? `<a href="${esc(r.href)}">${text}</a>` : text;
    return (
      `<td class="num heat" style="background:${heat(r.report.metrics.pnl.total, scale)}" title="variant #${i + 1}">` +
      `${link}<br><span class="muted">#${i + 1}</span></td>`
    );
  };
  return `<section id="sweep-heatmap">
<h2>Total P&amp;L over the grid</h2>
<p class="muted"><code>${esc(down)}</code> down, <code>${esc(across)}</code> across; ${HEATMAP_NOTE}</p>
<table class="t heatmap" id="heatmap-table">
<thead><tr><th>${esc(downName)} \\ ${esc(acrossName)}</th>${xs.map((x) => `<th class="num">${esc(x)}</th>`).join('')}</tr></thead>
<tbody>
${ys.map((y) => `<tr><th>${esc(y)}</th>${xs.map((x) => cellOf(y, x)).join('')}</tr>`).join('\n')}
</tbody>
</table>
</section>`;
}

const SWEEP_NOTE =
  'settled P&amp;L net of the commission paid, marked P&amp;L net of the expected commission on open ' +
  'taker bets (the figure under the commission paid: the most those can still be charged); mark-outs as ' +
  'total value, per stake under it; the best total P&amp;L in bold';

/**
 * A parameter sweep as one self-contained HTML page: a table comparing the variants (each
 * linking to its own report.html), a heatmap of total P&L when two keys were swept, and
 * their cumulative total P&L overlaid. Embeds, per variant, its settings, metrics and
 * series.pnl (SweepEmbeddedRow), not the whole report.
 */
export function renderSweepHtml(rows: readonly SweepRow[]): string {
  const keys = variantKeys(rows);
  const same = sameResults(rows);
  const best = rows.length > 0 ? Math.max(...rows.map((r) => toCents(r.report.metrics.pnl.total))) : 0;
  const body = rows.map((r, i) => {
    const m = r.report.metrics;
    const settings = keys.map((k) => {
      const v = r.variant[k];
      return v === undefined ? td('—', 'muted') : td(v);
    });
    const mo = (x: MarkoutMetrics) => tdTwo(money(x.total, true), percent(x.perStake), sign(x.total));
    const sameAs = same[i];
    const name =
      sameAs !== null && sameAs !== undefined
        ? `<td class="num">${i + 1}<br><span class="muted" title="the same P&amp;L over time as variant #${sameAs + 1}">= #${sameAs + 1}</span></td>`
        : tdNum(String(i + 1));
    const link = r.href ? `<td><a href="${esc(r.href)}">report</a></td>` : '<td class="muted">—</td>';
    const commission = tdTwo(money(m.pnl.commissionPaid), money(m.pnl.commissionAccrued));
    const volume = tdTwo(money(m.volume.maker), money(m.volume.taker));
    const open = `<tr${toCents(m.pnl.total) === best && rows.length > 1 ? ' class="best"' : ''}>`;
    const pnl = `${tdPnl(m.pnl.total)}${tdPnl(m.pnl.settled)}${tdPnl(m.pnl.marked)}${commission}`;
    const fills = `${tdNum(count(m.volume.fills))}${volume}${tdNum(percent(m.orders.fillRatio))}`;
    const markouts = `${mo(m.markout['5s'])}${mo(m.markout['60s'])}`;
    const risk = `${tdNum(money(m.maxDrawdown), toCents(m.maxDrawdown) > 0 ? 'neg' : '')}${tdLiability(m.maxLiability)}`;
    return `${open}${name}${settings.join('')}${pnl}${fills}${markouts}${risk}${link}</tr>`;
  });
  const head: (readonly [string, boolean])[] = [
    ['#', true],
    ...shortKeys(keys).map((k) => [k, false] as const),
    ['total P&L', true],
    ['settled P&L', true],
    ['marked P&L', true],
    ['commission paid / on open bets (max)', true],
    ['fills', true],
    ['volume maker / taker', true],
    ['fill ratio', true],
    ['mark-out 5 s (per stake)', true],
    ['mark-out 60 s (per stake)', true],
    ['max drawdown', true],
    ['max liability', true],
    ['report', false],
  ];
  const first = rows[0]?.report;
  const configs = [...new Set(rows.map((r) => r.report.run.config))];
  const files = [...new Set(rows.flatMap((r) => r.report.run.recording.files))];
  const strategies = [...new Set(rows.flatMap((r) => r.report.run.strategies.map((s) => s.id)))];
  const info = first
    ? kv([
        ['config', td(configs.join(', '))],
        ['strategies', td(strategies.join(', ') || '—')],
        [
          'recording files',
          `<td><ul class="plain">${files.map((f) => `<li><code>${esc(f)}</code></li>`).join('')}</ul></td>`,
        ],
        [
          'recording',
          td(
            `${utc(first.run.recording.start)} → ${utc(first.run.recording.end)} · ${duration(first.run.recording.end - first.run.recording.start)}`,
          ),
        ],
        ['variants', td(String(rows.length))],
      ])
    : '<p class="empty">no variants</p>';
  const dupes = same.filter((x) => x !== null).length;
  const dupesNote =
    dupes > 0
      ? `; ${dupes} variant${dupes === 1 ? ' has' : 's have'} the very same P&amp;L over time as an earlier one ` +
        '(marked = #n, drawn dashed over it)'
      : '';
  const html = `<header>
<h1>Parameter sweep · ${esc(configs.join(', ') || 'no variants')}</h1>
<p class="muted">${rows.length} variant${rows.length === 1 ? '' : 's'}; ${SWEEP_NOTE}${dupesNote}</p>
</header>
<section id="sweep-run">
<h2>Run</h2>
${info}
</section>
<section id="sweep">
<h2>Variants</h2>
${table(head, body, 'sweep-table', keys)}
</section>
${heatmapSection(rows, keys)}
<section id="sweep-pnl">
<h2>Cumulative total P&amp;L per variant</h2>
<div class="chart" id="chart-sweep"></div>
</section>`;
  const data: { readonly rows: readonly SweepEmbeddedRow[] } = {
    rows: rows.map((r, i) => ({
      variant: r.variant,
      metrics: r.report.metrics,
      pnl: r.report.series.pnl,
      sameAs: same[i] ?? null,
      label: variantText(r.variant, keys),
    })),
  };
  return page(`Sweep · ${configs.join(', ')}`, html, data, SWEEP_JS, 'wide');
}
