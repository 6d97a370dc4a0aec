import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { writeReport, writeSweepReport } from '../../src/backtest/report/write.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { sweepGrid, sweepRuns, type SweepOutcome } from '../../src/app/sweep.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { startSession, type Session } from '../../src/app/session.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { canvasInk, chromiumPath, collectErrors, launchChromium } from '../support/browser.ts';

// The pages as a user sees them, in headless Chromium (Debian's package: `.ci/run` installs
// it): report.html from a small backtest, sweep.html from a 2x2 sweep, and the live
// dashboard of a short paper session. Each fails on any console error and checks that every
// chart drew.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG_PATH = join(ROOT, 'test/browser/fixtures/small.yaml');
/** The first events of the recording: its opening snapshot and about twenty minutes of prices. */
const EVENTS = 3_500;
const CHROMIUM = chromiumPath();
/** A browser, a replay and a paper session on a loaded 2-core machine: generous, the tests take seconds when it is idle. */
const SLOW = 120_000;

if (!CHROMIUM) {
  process.stderr.write(
    '\ntest/browser/pages.test.ts: NOT RUN: no Chromium binary (apt-get install chromium, or ' +
      'set LINESMITH_CHROMIUM); report, sweep and dashboard pages untested in a browser\n\n',
  );
}

/** Every `.chart` box holds a drawn chart or says why it has none; every canvas has pixels. */
async function expectChartsDrawn(page: Page, atLeast: number): Promise<void> {
  const ink = await canvasInk(page);
  expect(ink.length).toBeGreaterThanOrEqual(atLeast);
  for (const c of ink) {
    expect(c.width).toBeGreaterThan(0);
    expect(c.inked).toBeGreaterThan(0);
  }
  const blank = await page.evaluate(
    `[...document.querySelectorAll('.chart')].filter((c) => !c.querySelector('canvas') && !c.querySelector('.empty')).map((c) => c.id)`,
  );
  expect(blank).toEqual([]);
}

/** Width the page and an element scroll beyond their box: 0 when they fit. */
async function overflow(page: Page, selector: string): Promise<{ page: number; element: number }> {
  return page.evaluate(`(() => {
    const d = document.documentElement, e = document.querySelector(${JSON.stringify(selector)});
    return { page: d.scrollWidth - d.clientWidth, element: e ? e.scrollWidth - e.clientWidth : -1 };
  })()`);
}

describe.skipIf(!CHROMIUM)('the pages in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let tape: Tape;

  beforeAll(async () => {
    browser = await launchChromium(CHROMIUM!);
    dir = await mkdtemp(join(tmpdir(), 'ls-pages-'));
    const full = await loadTape([join(ROOT, 'backtest/data/paper-seed11-drops')]);
    tape = { ...full, items: full.items.slice(0, EVENTS) };
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, SLOW);

  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(url);
    return { page, errors };
  }

  it(
    'report.html of a backtest: no console error, every chart drawn',
    async () => {
      const text = await readFile(CONFIG_PATH, 'utf8');
      const config = await parseConfigText(text, CONFIG_PATH, { resolveStrategy: defaultStrategyResolver(strategies) });
      const result = await runBacktest({ config, tape, logger: silentLogger() });
      expect(result.report.metrics.volume.fills).toBeGreaterThan(0);
      const paths = await writeReport(join(dir, 'single'), result);
      const { page, errors } = await open(pathToFileURL(paths.html).href);
      // P&L, drawdown, per strategy, per league, two liability charts, and a card per game and per quoted book.
      await expectChartsDrawn(page, 8);
      expect(await page.locator('#charts-positions .uplot').count()).toBeGreaterThan(0);
      expect(await page.locator('#charts-quotes .uplot').count()).toBe(result.report.series.quotes.length);
      expect(errors).toEqual([]);
      await page.close();
    },
    SLOW,
  );

  it(
    'sweep.html of a 2x2 sweep: no console error, the chart drawn, the table fits 1,400 px, links reach each variant',
    async () => {
      const text = await readFile(CONFIG_PATH, 'utf8');
      const runs = sweepRuns(
        text,
        sweepGrid([
          { key: 'strategies.fixed-spread.params.margin', values: ['0.02', '0.03'] },
          { key: 'strategies.fixed-spread.params.sizePerLevel', values: ['25', '50'] },
        ]),
      );
      // In this process, one after another: the worker threads are sweep.test.ts's, the pages are this test's.
      const outcomes: SweepOutcome[] = [];
      for (const run of runs) {
        const config = await parseConfigText(run.configText, CONFIG_PATH, {
          resolveStrategy: defaultStrategyResolver(strategies),
        });
        outcomes.push({
          variant: run.variant,
          result: await runBacktest({ config, tape, logger: silentLogger() }),
          error: null,
          replayMs: 0,
        });
      }
      const written = await writeSweepReport(join(dir, 'sweep'), outcomes);
      const { page, errors } = await open(pathToFileURL(written.html).href);
      await expectChartsDrawn(page, 1);
      expect(await overflow(page, '#sweep')).toEqual({ page: 0, element: 0 });
      expect(await page.locator('#sweep-heatmap td.heat').count()).toBe(4);
      const links = await page.locator('#sweep-table a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(links).toEqual([
        'variant-001/report.html',
        'variant-002/report.html',
        'variant-003/report.html',
        'variant-004/report.html',
      ]);
      expect(errors).toEqual([]);
      // A variant's own report opens from its link.
      await page.locator('#sweep-table a').first().click();
      await page.waitForSelector('#chart-pnl canvas');
      expect(page.url()).toMatch(/variant-001\/report\.html$/);
      expect(errors).toEqual([]);
      await page.close();
    },
    SLOW,
  );

  describe('the dashboard of a running paper session', () => {
    let session: Session;

    beforeAll(async () => {
      const config = await parseConfigText(
        `
paper:
  seed: 11
  speed: 30
  scenario: ${ROOT}config/scenarios/default.yaml
strategies:
  - id: spread
    module: fixed-spread
    interest: { leagues: [NBA, NFL], markets: [moneyline] }
    throttleMs: 0
risk:
  maxGameLiability: 500
  maxTotalLiability: 20000
  maxOrderSize: 100
  maxOrdersPerGame: 20
logging:
  level: silent
  pretty: false
metrics:
  enabled: true
  port: 0
`,
        join(ROOT, 'test/browser/paper.yaml'),
        { resolveStrategy: defaultStrategyResolver(strategies) },
      );
      session = await startSession({ config, mode: 'paper', logger: silentLogger() });
    }, SLOW);

    afterAll(async () => {
      session?.stop('test over');
      await session?.done;
    }, SLOW);

    it(
      'serves / on loopback: live figures, every chart drawn, no console error',
      async () => {
        const url = session.metricsUrl!;
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const { page, errors } = await open(`${url}/`);
        // Two readings at least: the charts have a line, not a point.
        // (The page's CSP forbids eval, so no waitForFunction: the test polls from outside.)
        await expect.poll(() => page.locator('.uplot').count(), { timeout: 10_000 }).toBe(4);
        await page.waitForTimeout(2_500);
        await expectChartsDrawn(page, 4);
        expect(await page.locator('#mode').textContent()).toMatch(/^(active|reducing|halted)$/);
        expect(await page.locator('#tiles .tile').count()).toBeGreaterThanOrEqual(9);
        expect(await page.locator('#feed-table tbody tr').count()).toBeGreaterThanOrEqual(2);
        const tiles = await page.locator('#tiles').textContent();
        for (const k of [
          'games quoted',
          'open orders',
          'fills',
          'P&L settled',
          'P&L marked to fair',
          'worst case, all games',
          'strategy errors',
          'request budget',
        ])
          expect(tiles).toContain(k);
        expect(errors).toEqual([]);
        await page.close();
      },
      SLOW,
    );
  });
});

if (!CHROMIUM) {
  describe('the pages in headless Chromium', () => {
    it.skip('NOT RUN: no Chromium binary (apt-get install chromium, or set LINESMITH_CHROMIUM)', () => undefined);
  });
}
