import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { StatusReport } from '../../src/metrics/status-report.ts';
import { startSession, type Session } from '../../src/app/session.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { parseMetrics, sample } from './support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** fixed-spread without a throttle, so a price event that moves a quote leads to orders in its own dispatch. */
const CONFIG = `
paper:
  seed: 11
  speed: 30
  scenario: ${ROOT}config/scenarios/default.yaml
strategies:
  - id: spread
    module: fixed-spread
    interest: { leagues: [NBA, NFL], markets: [moneyline] }
    live: pull
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
`;

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

let session: Session;
let url: string;

beforeAll(async () => {
  const config = await parseConfigText(CONFIG, `${ROOT}test/metrics/paper.yaml`, {
    resolveStrategy: defaultStrategyResolver(strategies),
  });
  session = await startSession({ config, mode: 'paper', logger: silentLogger() });
  expect(session.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  url = session.metricsUrl!;
});

afterAll(async () => {
  session.stop('test over');
  await session.done;
});

/** The runtime's own figures at one instant: open orders, and fills split by settled and unsettled games. */
function truth() {
  const rt = session.runtime;
  const st = rt.status();
  const games = new Set([...rt.own.allOrders()].map((o) => o.gameID));
  let settledFills = 0;
  for (const g of games) if (rt.own.isSettled(g)) settledFills += rt.own.fills(g).length;
  const totals = rt.own.fillTotals();
  return { openOrders: st.openOrders, fills: st.fills, settledFills, maker: totals.maker, taker: totals.taker };
}

describe('a paper session with metrics enabled', () => {
  it('serves /metrics whose figures agree with Runtime.status(), and tick-to-order observations', async () => {
    // Until something happened worth measuring: open orders, and an order sent straight from a price event.
    const deadline = Date.now() + 25_000;
    let text = '';
    for (;;) {
      text = await scrape(url);
      const m = parseMetrics(text);
      if (
        (sample(m, 'linesmith_open_orders') ?? 0) > 0 &&
        (sample(m, 'linesmith_tick_to_order_seconds_count') ?? 0) > 0
      )
        break;
      if (Date.now() > deadline) throw new Error(`nothing to measure yet:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    // The runtime keeps trading while the scrape travels: compare against a scrape taken
    // while the runtime's figures stood still (the same before and after it).
    let compared = false;
    for (let attempt = 0; attempt < 200 && !compared; attempt++) {
      const before = truth();
      const m = parseMetrics(await scrape(url));
      const after = truth();
      if (JSON.stringify(before) !== JSON.stringify(after)) continue;
      expect(sample(m, 'linesmith_open_orders')).toBe(before.openOrders);
      const maker = sample(m, 'linesmith_fills_total', { role: 'maker' });
      const taker = sample(m, 'linesmith_fills_total', { role: 'taker' });
      expect(maker).toBe(before.maker);
      expect(taker).toBe(before.taker);
      // Runtime.status() counts fills on unsettled games; the counter keeps those of settled games too.
      expect(maker! + taker!).toBe(before.fills + before.settledFills);
      compared = true;
    }
    expect(compared).toBe(true);

    const m = parseMetrics(await scrape(url));
    const count = sample(m, 'linesmith_tick_to_order_seconds_count')!;
    expect(count).toBeGreaterThan(0);
    expect(sample(m, 'linesmith_tick_to_order_seconds_bucket', { le: '+Inf' })).toBe(count);
    expect(sample(m, 'linesmith_tick_to_order_seconds_sum')).toBeGreaterThan(0);
    expect(sample(m, 'linesmith_socket_up', { socket: 'price' })).toBe(1);
    expect(sample(m, 'linesmith_socket_up', { socket: 'user' })).toBe(1);
    expect(sample(m, 'linesmith_socket_reconnects_total', { socket: 'price' })).toBe(0);
    expect(sample(m, 'linesmith_trading_mode', { mode: 'active' })).toBe(1);
    expect(sample(m, 'linesmith_feed_lag_seconds', { feed: 'price' })).toBeGreaterThanOrEqual(0);
    expect(sample(m, 'linesmith_rate_limit_waits_total')).toBeGreaterThanOrEqual(0);
    expect(sample(m, 'linesmith_reconcile_actions_total', { action: 'adopted' })).toBe(0);
    expect(sample(m, 'linesmith_orders_sent_total', { action: 'place' })).toBeGreaterThan(0);
    // Per-game worst cases sum to the account's.
    const perGame = m.filter((s) => s.name === 'linesmith_worst_case_liability').reduce((a, s) => a + s.value, 0);
    expect(perGame).toBeLessThan(0);
    expect(perGame).toBeCloseTo(sample(m, 'linesmith_worst_case_liability_account')!, 6);
  });

  it('serves /status as a status report of the same runtime', async () => {
    const res = await fetch(`${url}/status`);
    expect(res.status).toBe(200);
    const report = StatusReport.parse(await res.json());
    expect(report.session).toBe('paper');
    expect(report.mode).toBe('active');
    expect(report.games).toBeGreaterThan(0);
    expect(report.feeds.price.status).toBe('open');
    expect(report.feeds.orders).toBeNull();
    expect(report.tickToOrder.count).toBeGreaterThan(0);
    expect(report.tickToOrder.p50Seconds).toBeGreaterThan(0);
    expect(report.tickToOrder.p99Seconds).toBeGreaterThanOrEqual(report.tickToOrder.p50Seconds!);
    expect(report.rateLimit).not.toBeNull();
  });

  it('answers 404 elsewhere and 405 to anything but GET', async () => {
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
