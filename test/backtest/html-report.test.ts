import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  HTML_DATA_ELEMENT_ID,
  renderHtmlReport,
  renderSweepHtml,
  type SweepRow,
} from '../../src/backtest/report/html.ts';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type BacktestReport,
  type FillRow,
  type ReportExtras,
} from '../../src/backtest/report/types.ts';

const EVIL_STRATEGY = '<script>alert(1)</script>';
const EVIL_GAME = 'Bad </script><script>alert(2)</script> FC @ Home & Co';
const EVIL_FILE = 'rec-"one"<img src=x onerror=alert(3)>.jsonl.gz';
const T0 = Date.UTC(2026, 10, 21, 18, 0, 0);
const MIN = 60_000;

const row = (fills: number, makerVolume: number, takerVolume: number, settledPnl: number, markedPnl: number) => ({
  fills,
  makerVolume,
  takerVolume,
  settledPnl,
  markedPnl,
});

function fixture(): BacktestReport {
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    run: {
      config: 'sample.yaml',
      strategies: [
        { id: EVIL_STRATEGY, module: 'fixed-spread', params: { spread: 12, size: 25 } },
        { id: 'skew', module: 'inventory-skew', params: {} },
      ],
      recording: {
        files: [EVIL_FILE, 'rec-2.jsonl.gz'],
        sessions: ['s1'],
        start: T0,
        end: T0 + 60 * MIN,
        complete: false,
      },
      seed: 7,
      fillModel: { kind: 'risk-averse', power: 2 },
      latency: { kind: 'fixed', ms: 50 },
      balance: 10_000,
      commission: 0.01,
    },
    input: {
      events: 12_345,
      priceFrames: 12_000,
      malformedFrames: 1,
      unknownFrameTypes: 0,
      badLines: 2,
      problems: ['rec-2.jsonl.gz:17: bad json: Unexpected token <', 'rec-2.jsonl.gz:18: bad json: -->'],
    },
    metrics: {
      pnl: { settled: 123.456, marked: -20.5, total: 102.956, commissionPaid: 3.21, commissionAccrued: 0.5 },
      volume: { fills: 3, makerFills: 2, takerFills: 1, maker: 1500, taker: 250 },
      orders: {
        placed: 40,
        cancelled: 30,
        edited: 5,
        editsReplacing: 1,
        editsRejected: 0,
        refusedByRisk: 2,
        rejectedByExchange: 1,
        postArb: 0,
        fillRatio: 0.075,
        stakeFillRatio: 0.0437,
      },
      markout: {
        '5s': { fills: 3, total: 4.2, perStake: 0.0024 },
        '60s': { fills: 2, total: -1.75, perStake: -0.00117 },
      },
      maxDrawdown: 33.3,
      maxLiability: -812.4,
    },
    games: [
      {
        gameID: 'g1',
        league: 'NBA',
        name: EVIL_GAME,
        settlement: 'settled',
        score: { away: 101, home: 99 },
        maxLiability: -612.4,
        ...row(2, 1500, 0, 123.456, 0),
        markets: [
          { market: 'moneyline', ...row(1, 1000, 0, 150, 0) },
          { market: 'total:215.5', ...row(1, 500, 0, -26.544, 0) },
        ],
      },
      {
        gameID: 'g2',
        league: 'NHL',
        name: 'Away Team @ Home Team',
        settlement: 'marked',
        score: null,
        maxLiability: -200,
        ...row(1, 0, 250, 0, -20.5),
        markets: [{ market: 'spread:-1.5', ...row(1, 0, 250, 0, -20.5) }],
      },
    ],
    markets: [
      { market: 'moneyline', ...row(1, 1000, 0, 150, 0) },
      { market: 'spread', ...row(1, 0, 250, 0, -20.5) },
      { market: 'total', ...row(1, 500, 0, -26.544, 0) },
    ],
    strategies: [
      { strategy: EVIL_STRATEGY, ...row(2, 1500, 0, 123.456, 0) },
      { strategy: 'skew', ...row(1, 0, 250, 0, -20.5) },
    ],
    execution: { ordersReceived: 43, cancelsReceived: 30, meanLatencyMs: 50.25 },
    strategyErrors: { total: 0, strategies: [] },
    notes: [
      `g2 (Away Team @ Home Team): no result in the recording; its 1 fills are marked at the last consensus fair price`,
      'the recording has no end record: the recorder stopped without closing it',
      '2 input line(s) skipped (see input.problems)',
    ],
    series: {
      sampleMs: 10 * MIN,
      pnl: [
        [T0, 0, 0, 0],
        [T0 + 10 * MIN, 0, 12.5, 12.5],
        [T0 + 20 * MIN, 0, -20.8, -20.8],
        [T0 + 30 * MIN, 150, -10, 140],
        [T0 + 60 * MIN, 123.456, -20.5, 102.956],
      ],
      liability: {
        g1: [
          [T0, -300, 0],
          [T0 + 10 * MIN, -612.4, -250],
          [T0 + 20 * MIN, -500, -480],
        ],
        g2: [
          [T0 + 10 * MIN, -100, 0],
          [T0 + 20 * MIN, -200, -150],
          [T0 + 30 * MIN, -180, -150],
          [T0 + 60 * MIN, -120, -120],
        ],
      },
      quotes: [
        {
          gameID: 'g1',
          bookKey: 'moneyline',
          rows: [
            [T0, -110, -105, 102, 100],
            [T0 + 10 * MIN, null, -105, 105, -102],
            [T0 + 20 * MIN, -108, null, null, null],
          ],
        },
        { gameID: 'g2', bookKey: 'total:5.5', rows: [[T0 + 10 * MIN, 120, 125, -140, -135]] },
      ],
      markouts: [
        [T0 + 5 * MIN, 1000, 1.0, 2.5, -1.25],
        [T0 + 7 * MIN, 500, 0.4, 1.2, -0.5],
        [T0 + 12 * MIN, 250, null, 0.5, null],
      ],
    },
  };
}

function sweepRows(): SweepRow[] {
  const a = fixture();
  const b = fixture();
  const bb: BacktestReport = {
    ...b,
    metrics: {
      ...b.metrics,
      pnl: { ...b.metrics.pnl, settled: -40, marked: 5.25, total: -34.75, commissionPaid: 0, commissionAccrued: 0.77 },
      volume: { ...b.metrics.volume, fills: 17, maker: 2345.5, taker: 99.99 },
      orders: { ...b.metrics.orders, fillRatio: 0.4 },
      markout: {
        '5s': { fills: 17, total: -8.1, perStake: -0.0033 },
        '60s': { fills: 16, total: 12.34, perStake: 0.005 },
      },
      maxDrawdown: 77.7,
      maxLiability: -1999.99,
    },
    series: {
      ...b.series,
      pnl: [
        [T0, 0, 0, 0],
        [T0 + 5 * MIN, -10, 1, -9],
        [T0 + 60 * MIN, -40, 5.25, -34.75],
      ],
    },
  };
  return [
    { variant: { 'fixed-spread.spread': '10' }, report: a },
    { variant: { 'fixed-spread.spread': '<b>20</b>', 'latency.ms': '100' }, report: bb },
  ];
}

// ------------------------------------------------------------ helpers

const DATA_RE = new RegExp(`<script type="application/json" id="${HTML_DATA_ELEMENT_ID}">([\\s\\S]*?)</script>`);

function embedded(html: string): unknown {
  const m = DATA_RE.exec(html);
  expect(m).not.toBeNull();
  // JSON.parse undoes the \u003c escapes.
  return JSON.parse(m![1]!);
}

/** The HTML of one `<section id=…>`. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}">`);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}

const count = (s: string, sub: string) => s.split(sub).length - 1;

function expectSelfContained(html: string): void {
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  expect(html).not.toMatch(/<link\b/i);
  expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
  expect(html).not.toMatch(/@import|url\(\s*["']?(https?:)?\/\//i);
  // uPlot itself, inlined
  const req = createRequire(import.meta.url);
  expect(html).toContain(readFileSync(req.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8').trim());
  expect(html).toContain(readFileSync(req.resolve('uplot/dist/uPlot.min.css'), 'utf8').trim());
  // exactly the three script elements: data, uPlot, the page's
  expect(count(html, '<script')).toBe(3);
  expect(count(html, '</script>')).toBe(3);
}

interface FakeElement {
  readonly tag: string;
  readonly children: FakeElement[];
  textContent: string;
  className: string;
  clientWidth: number;
  appendChild(c: FakeElement): FakeElement;
}

interface Made {
  readonly opts: {
    title?: string;
    height?: number;
    series: { label?: string; spanGaps?: boolean; value?: (u: unknown, v: number | null) => string }[];
    axes?: { values?: (u: unknown, v: number[]) => string[] }[];
  };
  readonly data: (number | null | undefined)[][];
  readonly el: FakeElement;
}

/** Runs the page's own script (not uPlot's) against a minimal DOM and a uPlot that records what it is asked to draw. */
function runPageScript(html: string): { made: Made[]; byId: Map<string, FakeElement> } {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(2);
  const dataText = DATA_RE.exec(html)![1]!;
  const el = (tag: string): FakeElement => ({
    tag,
    children: [],
    textContent: '',
    className: '',
    clientWidth: 900,
    appendChild(c) {
      this.children.push(c);
      return c;
    },
  });
  const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
  const byId = new Map<string, FakeElement>();
  const document = {
    getElementById(id: string) {
      if (id === HTML_DATA_ELEMENT_ID) return { textContent: dataText };
      if (!ids.has(id)) return null;
      if (!byId.has(id)) byId.set(id, el('div'));
      return byId.get(id);
    },
    createElement: el,
  };
  const made: Made[] = [];
  function uPlot(this: { setSize: () => void }, opts: Made['opts'], data: Made['data'], target: FakeElement) {
    made.push({ opts, data, el: target });
    this.setSize = () => undefined;
  }
  uPlot.tzDate = (d: Date) => d;
  vm.runInNewContext(scripts[1]!, { document, window: { addEventListener: () => undefined }, uPlot });
  // The data arrays come from the other realm: compare them as plain data.
  return {
    made: made.map((m) => ({ opts: m.opts, data: JSON.parse(JSON.stringify(m.data)) as Made['data'], el: m.el })),
    byId,
  };
}

const s = (ms: number) => ms / 1000;

// ------------------------------------------------------------ the report

describe('renderHtmlReport', () => {
  const report = fixture();
  const html = renderHtmlReport(report);

  it('is one self-contained file: no external references, uPlot inlined', () => {
    expectSelfContained(html);
    expect(html).toContain('Content-Security-Policy');
  });

  it('embeds the report as JSON that round-trips to the same report', () => {
    expect(embedded(html)).toEqual({ report, extras: null, fills: [] });
    const raw = DATA_RE.exec(html)![1]!;
    expect(raw).not.toMatch(/[<>&]/);
    expect(raw).toContain('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
  });

  it('shows the hostile strings only escaped', () => {
    expect(html).not.toContain(EVIL_STRATEGY);
    expect(html).not.toContain('<script>alert(2)</script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(section(html, 'games')).toContain(
      'Bad &lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt; FC @ Home &amp; Co',
    );
    expect(section(html, 'run')).toContain('rec-&quot;one&quot;&lt;img src=x onerror=alert(3)&gt;.jsonl.gz');
    expect(section(html, 'strategies')).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
  });

  it('has the run in the header', () => {
    const run = section(html, 'run');
    for (const x of [
      'sample.yaml',
      'fixed-spread',
      'spread=12, size=25',
      'inventory-skew',
      'rec-2.jsonl.gz',
      's1',
      '>7<',
      'risk-averse (power=2)',
      'fixed (ms=50)',
      '$10,000.00',
      '1.00%',
      '12,345 events',
    ])
      expect(run).toContain(x);
    expect(html).toContain('2026-11-21 18:00:00 UTC → 2026-11-21 19:00:00 UTC · 1 h of exchange time');
    expect(html).toContain('recording incomplete');
  });

  it('has the metrics in the summary table', () => {
    const m = section(html, 'metrics');
    const cell = (label: string, value: string) =>
      expect(m).toMatch(new RegExp(`<th>${label}</th><td class="num[^"]*">${value.replace(/[$+().]/g, '\\$&')}</td>`));
    cell('settled P&amp;L', '+$123.46');
    cell('marked P&amp;L', '-$20.50');
    cell('total P&amp;L', '+$102.96');
    cell('commission paid', '$3.21');
    cell('commission on open bets, at most', '$0.50');
    cell('max drawdown', '$33.30');
    cell('max liability', '-$812.40');
    cell('fills', '3 (maker 2, taker 1)');
    cell('maker volume', '$1,500.00');
    cell('taker volume', '$250.00');
    cell('orders placed', '40');
    cell('orders cancelled', '30');
    cell('refused by risk', '2');
    cell('rejected by exchange', '1');
    cell('fill ratio \\(orders\\)', '7.50%');
    cell('fill ratio \\(stake\\)', '4.37%');
    cell('mark-out 5 s', '+$4.20 (0.24% of stake, 3 fills)');
    cell('mark-out 60 s', '-$1.75 (-0.12% of stake, 2 fills)');
    expect(m).toContain('<td class="num pos">+$123.46</td>');
    expect(m).toContain('<td class="num neg">-$20.50</td>');
  });

  it('lists the notes and the skipped input lines', () => {
    const n = section(html, 'notes');
    expect(n).toContain('g2 (Away Team @ Home Team): no result in the recording');
    expect(n).toContain('the recording has no end record');
    expect(n).toContain('rec-2.jsonl.gz:17: bad json: Unexpected token &lt;');
    expect(n).toContain('rec-2.jsonl.gz:18: bad json: --&gt;');
  });

  it('has a row per game with its markets as sub rows, and rows per market and strategy', () => {
    const g = section(html, 'games');
    expect(count(g, '<tr class="game">')).toBe(2);
    expect(count(g, '<tr class="sub">')).toBe(3);
    // The id is on hover, not in the text.
    expect(g).toContain('<td title="game g1"><b>');
    expect(g).toContain('<span class="muted">NBA</span>');
    expect(g).toContain('101–99');
    expect(g).toContain('<td class="warn">marked</td>');
    for (const x of [
      '<td>moneyline</td>',
      '<td>total:215.5</td>',
      '<td>spread:-1.5</td>',
      '+$150.00',
      '-$26.54',
      '-$612.40',
      '-$200.00',
      '$1,500.00',
    ])
      expect(g).toContain(x);
    // a game row: fills, maker, taker, settled, marked, total, max liability
    expect(g).toContain(
      '<td class="num">2</td><td class="num">$1,500.00</td><td class="num">$0.00</td>' +
        '<td class="num pos">+$123.46</td><td class="num">$0.00</td><td class="num pos">+$123.46</td>' +
        '<td class="num neg">-$612.40</td>',
    );
    const mk = section(html, 'markets');
    expect(count(mk, '<tr>')).toBe(1 + 3); // the head and a row per market
    expect(mk).toContain(
      '<td>spread</td><td class="num">1</td><td class="num">$0.00</td><td class="num">$250.00</td>' +
        '<td class="num">$0.00</td><td class="num neg">-$20.50</td><td class="num neg">-$20.50</td>',
    );
    const st = section(html, 'strategies');
    expect(count(st, '<tr>')).toBe(1 + 2);
    expect(st).toContain('<td class="muted">inventory-skew</td>');
    const ex = section(html, 'execution');
    expect(ex).toContain('<th title="ordersReceived">ordersReceived</th><td class="num">43</td>');
    expect(ex).toContain('<th title="meanLatencyMs">meanLatencyMs</th><td class="num">50.25</td>');
    // The simulated venue's own counters are named and explained, their names on hover.
    const named = section(
      renderHtmlReport({ ...report, execution: { mirrored: 4, mirrorRefused: 1, passiveStake: 1234.5 } }),
      'execution',
    );
    expect(named).toContain('<th title="passiveStake">stake filled while resting</th><td class="num">$1,234.50</td>');
    expect(named).toContain(
      '<th title="mirrored">recorded orders copied in</th><td class="num">4</td><td class="muted">recorded orders put into the simulated book',
    );
    expect(named).toContain('<th title="mirrorRefused">recorded orders not copied in</th><td class="num">1</td>');
  });

  it('summarises the mark-outs per horizon', () => {
    const mo = section(html, 'markouts');
    // 5 s: 3 fills, Σ 4.2, mean 1.40, per stake 4.2 / 1750, 3 of 3 worth > 0
    expect(mo).toContain(
      '<td>5 s later</td><td class="num">3</td><td class="num pos">+$4.20</td>' +
        '<td class="num pos">+$1.40</td><td class="num">0.24%</td><td class="num">100.00%</td>',
    );
    // 60 s: 2 fills, Σ -1.75, per stake -1.75 / 1500
    expect(mo).toContain(
      '<td>60 s later</td><td class="num">2</td><td class="num neg">-$1.75</td>' +
        '<td class="num neg">-$0.88</td><td class="num">-0.12%</td><td class="num">0.00%</td>',
    );
  });

  it("draws the charts from the embedded data (the page's script run against a stub DOM and uPlot)", () => {
    const { made, byId } = runPageScript(html);
    const on = (id: string) => made.filter((m) => m.el === byId.get(id));
    // (a) P&L: seconds, settled, marked, total
    const [pnl] = on('chart-pnl');
    expect(pnl!.data).toEqual([
      report.series.pnl.map((r) => s(r[0]!)),
      ...[1, 2, 3].map((c) => report.series.pnl.map((r) => r[c])),
    ]);
    expect(pnl!.opts.series.map((x) => x.label)).toEqual(['time (UTC)', 'settled', 'marked', 'total']);
    expect(pnl!.opts.series[3]!.value!(null, -1234.5)).toBe('-$1,234.50');
    // (b) liability: one line per game on the union of times, plus the sum over games; with resting orders, then matched only
    const times = [T0, T0 + 10 * MIN, T0 + 20 * MIN, T0 + 30 * MIN, T0 + 60 * MIN].map(s);
    const [withResting] = on('chart-liability');
    expect(withResting!.data).toEqual([
      times,
      [-300, -612.4, -500, null, null],
      [null, -100, -200, -180, -120],
      [-300, -712.4, -700, -180, -120],
    ]);
    expect(withResting!.opts.series.map((x) => x.label)).toEqual([
      'time (UTC)',
      EVIL_GAME,
      'Away Team @ Home Team',
      'all games',
    ]);
    const [matched] = on('chart-exposure');
    expect(matched!.data).toEqual([
      times,
      [0, -250, -480, null, null],
      [null, 0, -150, -150, -120],
      [0, -250, -630, -150, -120],
    ]);
    // (c) quotes: a card per entry, odds drawn as implied probability, null kept as a gap
    const cards = byId.get('charts-quotes')!.children;
    expect(cards).toHaveLength(2);
    expect(cards[0]!.children[0]!.textContent).toBe(`${EVIL_GAME} · moneyline`);
    expect(cards[1]!.children[0]!.textContent).toBe('Away Team @ Home Team · total:5.5');
    const q1 = made.find((m) => m.el === cards[0]!.children[1])!;
    const p = (o: number | null) => (o === null ? null : o < 0 ? -o / (100 - o) : 100 / (o + 100));
    const none = [null, null, null];
    expect(q1.data).toEqual([
      [T0, T0 + 10 * MIN, T0 + 20 * MIN].map(s),
      [-110, null, -108].map(p),
      [-105, -105, null].map(p),
      [102, 105, null].map(p),
      [100, -102, null].map(p),
      none,
      none,
    ]);
    expect(q1.opts.series.map((x) => x.label)).toEqual([
      'time (UTC)',
      'ours home',
      'market home',
      'ours away',
      'market away',
      'our fills (taker of home)',
      'our fills (taker of away)',
    ]);
    // The legend gives the American odds the point stands for, and its probability.
    const value = q1.opts.series[1]!.value as unknown as (
      u: unknown,
      v: number | null,
      si: number,
      di: number | null,
    ) => string;
    expect(value(null, p(-110), 1, 0)).toBe('-110 (52.4%)');
    expect(value(null, p(100), 4, 0)).toBe('+100 (50.0%)');
    expect(value(null, null, 1, 1)).toBe('—');
    expect(value(null, null, 1, null)).toBe('—');
    expect(q1.opts.axes![1]!.values!(null, [0.25, 0.5])).toEqual(['25%', '50%']);
    const q2 = made.find((m) => m.el === cards[1]!.children[1])!;
    expect(q2.opts.series.map((x) => x.label)).toEqual([
      'time (UTC)',
      'ours over',
      'market over',
      'ours under',
      'market under',
      'our fills (taker of over)',
      'our fills (taker of under)',
    ]);
    // (d) mark-outs: value 5 s and 60 s later per fill
    const [mo] = on('chart-markouts');
    expect(mo!.data).toEqual([report.series.markouts.map((r) => s(r[0]!)), [2.5, 1.2, 0.5], [-1.25, -0.5, null]]);
    // (e) drawdown: total P&L less its running high
    const [dd] = on('chart-drawdown');
    expect(dd!.data).toEqual([report.series.pnl.map((r) => s(r[0]!)), [0, 0, -20.8 - 12.5, 0, 102.956 - 140]]);
    // (f) a position card per game, the deepest worst case first
    const positions = byId.get('charts-positions')!.children;
    expect(positions.map((c) => c.children[0]!.textContent)).toEqual([EVIL_GAME, 'Away Team @ Home Team']);
    // Without extras: no per-strategy or per-league series.
    expect(byId.get('chart-pnl-strategy')!.children[0]!.textContent).toBe('no fills');
    expect(made).toHaveLength(9);
  });

  it('with the extras: games named by teams and start, never two alike; fills on the quotes and stake per game; P&L per strategy and league', () => {
    const extras: ReportExtras = {
      games: {
        g1: { league: 'NBA', away: 'Away Team', home: 'Home Team', start: T0 },
        g2: { league: 'NBA', away: 'Away Team', home: 'Home Team', start: T0 },
      },
      pnlByStrategy: {
        a: [
          [T0, 1],
          [T0 + 10 * MIN, 2],
        ],
        b: [[T0 + 10 * MIN, -1]],
      },
      pnlByLeague: { NBA: [[T0, 5]] },
    };
    const fill = (
      t: number,
      gameID: string,
      selection: string,
      origin: 'offer' | 'wager',
      odds: number,
      amount: number,
    ): FillRow => ({
      t,
      txID: `tx${t}`,
      orderID: 'o',
      strategy: 'a',
      gameID,
      market: 'moneyline',
      selection,
      origin,
      isPostArb: false,
      odds,
      amount,
      risk: amount,
      win: amount,
      commissionOnWin: 0,
      commissionOnLoss: 0,
    });
    // A maker fill backing home at -110 was taken by a taker of away at +110; a taker fill of ours on away at +105.
    const fills = [
      fill(T0 + 5 * MIN, 'g1', 'home', 'offer', -110, 100),
      fill(T0 + 10 * MIN, 'g1', 'away', 'wager', 105, 50),
    ];
    const out = renderHtmlReport(report, { extras, fills });
    expect(embedded(out)).toEqual({
      report,
      extras,
      fills: [
        [T0 + 5 * MIN, 'g1', 'moneyline', 1, 110, 1, 100, 'a'],
        [T0 + 10 * MIN, 'g1', 'moneyline', 1, 105, 0, 50, 'a'],
      ],
    });
    const { made, byId } = runPageScript(out);
    const on = (id: string) => made.filter((m) => m.el === byId.get(id));
    const [withResting] = on('chart-liability');
    expect(withResting!.opts.series.map((x) => x.label)).toEqual([
      'time (UTC)',
      'Away Team @ Home Team · 2026-11-21 18:00',
      'Away Team @ Home Team · 2026-11-21 18:00 (2)',
      'all games',
    ]);
    const cards = byId.get('charts-quotes')!.children;
    const q1 = made.find((m) => m.el === cards[0]!.children[1])!;
    // The fill times join the sample times; each quote carries its last sample forward.
    expect(q1.data[0]).toEqual([T0, T0 + 5 * MIN, T0 + 10 * MIN, T0 + 20 * MIN].map(s));
    expect(q1.data[5]).toEqual([null, null, null, null]);
    expect(q1.data[6]).toEqual([null, 100 / 210, 100 / 205, null]);
    expect(q1.data[1]).toEqual([110 / 210, 110 / 210, null, 108 / 208]);
    const positions = byId.get('charts-positions')!.children;
    const g1 = made.find((m) => m.el === positions[0]!.children[1])!;
    expect(g1.data[0]).toEqual([T0, T0 + 5 * MIN, T0 + 10 * MIN, T0 + 20 * MIN].map(s));
    expect(g1.data[3]).toEqual([0, 100, 150, 150]);
    const [strategy] = on('chart-pnl-strategy');
    expect(strategy!.data).toEqual([[T0, T0 + 10 * MIN].map(s), [1, 2], [null, -1]]);
    expect(on('chart-pnl-league')[0]!.opts.series.map((x) => x.label)).toEqual(['time (UTC)', 'NBA']);
  });

  it("gives an axis with one value a range around it, not uPlot's years", () => {
    const { made } = runPageScript(html);
    const scales = (
      made[0]!.opts as unknown as {
        scales: {
          x: { range: (u: unknown, lo: number, hi: number) => [number, number] };
          y: { range: (u: unknown, lo: number, hi: number) => [number, number] };
        };
      }
    ).scales;
    expect(scales.x.range(null, 1000, 1000)).toEqual([700, 1300]);
    expect(scales.x.range(null, 1000, 2000)).toEqual([1000, 2000]);
    expect(scales.y.range(null, 50, 50)).toEqual([45, 55]);
    expect(scales.y.range(null, 0, 0)).toEqual([-1, 1]);
  });

  it('renders a report with no series and no games', () => {
    const r = fixture();
    const bare: BacktestReport = {
      ...r,
      games: [],
      markets: [],
      strategies: [],
      notes: [],
      execution: {},
      input: { ...r.input, problems: [] },
      series: { sampleMs: 1000, pnl: [], liability: {}, quotes: [], markouts: [] },
    };
    const out = renderHtmlReport(bare);
    expectSelfContained(out);
    expect(embedded(out)).toEqual({ report: bare, extras: null, fills: [] });
    expect(section(out, 'games')).toContain('<td class="empty" colspan="10">none</td>');
    const { made, byId } = runPageScript(out);
    expect(made).toHaveLength(0);
    expect(byId.get('chart-pnl')!.children[0]!.textContent).toBe('no samples');
    expect(byId.get('charts-quotes')!.children[0]!.textContent).toBe('no quotes sampled');
  });
});

// ------------------------------------------------------------ the sweep

describe('renderSweepHtml', () => {
  const rows = sweepRows();
  const html = renderSweepHtml(rows);

  it('is one self-contained file: no external references, uPlot inlined', () => {
    expectSelfContained(html);
  });

  it("embeds each variant's settings, metrics and P&L series as JSON that round-trips", () => {
    const labels = ['fixed-spread.spread=10', 'fixed-spread.spread=<b>20</b> latency.ms=100'];
    expect(embedded(html)).toEqual({
      rows: rows.map((r, i) => ({
        variant: r.variant,
        metrics: r.report.metrics,
        pnl: r.report.series.pnl,
        sameAs: null,
        label: labels[i],
      })),
    });
  });

  it('shows the hostile strings only escaped', () => {
    expect(html).not.toContain('<b>20</b>');
    expect(html).not.toContain(EVIL_STRATEGY);
    expect(html).not.toContain('<img src=x');
    expect(section(html, 'sweep')).toContain('<td>&lt;b&gt;20&lt;/b&gt;</td>');
    expect(section(html, 'sweep-run')).toContain('&lt;script&gt;alert(1)&lt;/script&gt;, skew');
  });

  it('compares the variants in one table', () => {
    const t = section(html, 'sweep');
    expect(t).toContain(
      '<th title="fixed-spread.spread">fixed-spread.spread</th><th title="latency.ms">latency.ms</th>',
    );
    // Settled is net of the commission paid, marked of the expected commission on open bets; the most those can still be charged is under the commission paid.
    expect(t).toContain('<th class="num">marked P&amp;L</th><th class="num">commission paid / on open bets (max)</th>');
    expect(count(t, '<tr')).toBe(3);
    // variant 1: best total, no latency.ms setting
    expect(t).toContain(
      '<tr class="best"><td class="num">1</td><td>10</td><td class="muted">—</td>' +
        '<td class="num pos">+$102.96</td><td class="num pos">+$123.46</td><td class="num neg">-$20.50</td>' +
        '<td class="num">$3.21<br><span class="muted">$0.50</span></td><td class="num">3</td>' +
        '<td class="num">$1,500.00<br><span class="muted">$250.00</span></td><td class="num">7.50%</td>' +
        '<td class="num pos">+$4.20<br><span class="muted">0.24%</span></td>' +
        '<td class="num neg">-$1.75<br><span class="muted">-0.12%</span></td><td class="num neg">$33.30</td>' +
        '<td class="num neg">-$812.40</td><td class="muted">—</td></tr>',
    );
    expect(t).toContain(
      '<tr><td class="num">2</td><td>&lt;b&gt;20&lt;/b&gt;</td><td>100</td><td class="num neg">-$34.75</td>' +
        '<td class="num neg">-$40.00</td><td class="num pos">+$5.25</td>' +
        '<td class="num">$0.00<br><span class="muted">$0.77</span></td><td class="num">17</td>' +
        '<td class="num">$2,345.50<br><span class="muted">$99.99</span></td><td class="num">40.00%</td>' +
        '<td class="num neg">-$8.10<br><span class="muted">-0.33%</span></td>' +
        '<td class="num pos">+$12.34<br><span class="muted">0.50%</span></td><td class="num neg">$77.70</td>' +
        '<td class="num neg">-$1,999.99</td><td class="muted">—</td></tr>',
    );
  });

  it('overlays the cumulative total P&L of every variant in one chart', () => {
    const { made, byId } = runPageScript(html);
    expect(made).toHaveLength(1);
    const [c] = made;
    expect(c!.el).toBe(byId.get('chart-sweep'));
    const times = [T0, T0 + 5 * MIN, T0 + 10 * MIN, T0 + 20 * MIN, T0 + 30 * MIN, T0 + 60 * MIN].map(s);
    expect(c!.data).toEqual([times, [0, null, 12.5, -20.8, 140, 102.956], [0, -9, null, null, null, -34.75]]);
    expect(c!.opts.series.map((x) => x.label)).toEqual([
      'time (UTC)',
      '#1 fixed-spread.spread=10',
      '#2 fixed-spread.spread=<b>20</b> latency.ms=100',
    ]);
    expect(c!.opts.series.slice(1).every((x) => x.spanGaps === true)).toBe(true);
  });

  it('links each variant to its report, marks a variant whose P&L repeats an earlier one, and draws a two-key grid as a heatmap', () => {
    const a = fixture();
    const b = {
      ...a,
      metrics: { ...a.metrics, pnl: { ...a.metrics.pnl, total: -5 } },
      series: {
        ...a.series,
        pnl: [
          [T0, 0, 0, 0],
          [T0 + MIN, 0, -5, -5],
        ],
      },
    };
    const grid: SweepRow[] = [
      { variant: { 's.p.margin': '0.02', 's.p.size': '25' }, report: a, href: 'variant-001/report.html' },
      { variant: { 's.p.margin': '0.02', 's.p.size': '50' }, report: b, href: 'variant-002/report.html' },
      { variant: { 's.p.margin': '0.03', 's.p.size': '25' }, report: a, href: 'variant-003/report.html' },
    ];
    const out = renderSweepHtml(grid);
    expectSelfContained(out);
    const t = section(out, 'sweep');
    // The keys less their shared front; the whole path on hover.
    expect(t).toContain('<th title="s.p.margin">margin</th><th title="s.p.size">size</th>');
    expect(t).toContain('<td><a href="variant-002/report.html">report</a></td>');
    expect(t).toContain(
      '<td class="num">3<br><span class="muted" title="the same P&amp;L over time as variant #1">= #1</span></td>',
    );
    const h = section(out, 'sweep-heatmap');
    expect(h).toContain('<th>margin \\ size</th><th class="num">25</th><th class="num">50</th>');
    expect(count(h, '<td class="num heat"')).toBe(3);
    expect(h).toContain('<a href="variant-002/report.html">-$5.00</a>');
    // the missing cell of the grid
    expect(h).toContain('<td class="num muted">—</td>');
    const { made } = runPageScript(out);
    const series = made[0]!.opts.series as { label?: string; dash?: number[] }[];
    expect(series[3]!.label).toBe('#3 margin=0.03 size=25 (same P&L as #1)');
    expect(series[3]!.dash).toBeDefined();
    expect(series[1]!.dash).toBeUndefined();
    // One key: no heatmap.
    expect(renderSweepHtml(grid.map((r) => ({ ...r, variant: { margin: r.variant['s.p.margin']! } })))).not.toContain(
      'id="sweep-heatmap"',
    );
  });

  it('renders an empty sweep', () => {
    const out = renderSweepHtml([]);
    expectSelfContained(out);
    expect(embedded(out)).toEqual({ rows: [] });
    const { made, byId } = runPageScript(out);
    expect(made).toHaveLength(0);
    expect(byId.get('chart-sweep')!.children[0]!.textContent).toBe('no samples');
  });
});
