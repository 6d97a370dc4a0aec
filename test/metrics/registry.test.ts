import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { RequestBudget } from '../../src/exchange/rest/request-budget.ts';
import { MetricsListenError } from '../../src/metrics/errors.ts';
import { RuntimeMetrics } from '../../src/metrics/runtime-metrics.ts';
import { startMetricsServer } from '../../src/metrics/server.ts';
import type { Runtime, RuntimeStatus } from '../../src/runtime/runtime.ts';
import type { HaltReason } from '../../src/runtime/halt-reason.ts';
import { manualTime } from '../../src/shared/time.ts';
import { parseMetrics, sample } from './support.ts';

const T0 = Date.UTC(2026, 0, 1);
const flush = (): Promise<void> => new Promise<void>((r) => setImmediate(r));

describe('rate-limit waits', () => {
  it('the request budget adds up how long delayed requests waited, 429 pauses included', async () => {
    const time = manualTime(T0);
    const budget = new RequestBudget({
      headroom: 1,
      global: { limit: 1, windowMs: 1_000 },
      clock: time.clock,
      scheduler: time.scheduler,
    });
    await budget.acquire();
    const second = budget.acquire();
    time.advance(1_000);
    await second;
    budget.pause('global', 3_000); // a 429 with Retry-After: 3
    const third = budget.acquire();
    time.advance(3_000);
    await third;
    expect(budget.stats).toMatchObject({ admitted: 3, delayed: 2, paused: 1, waitedMs: 4_000 });
  });

  it('are exported as counters in wall seconds (a paper clock running 2× is divided out)', async () => {
    const time = manualTime(T0);
    const budget = new RequestBudget({
      headroom: 1,
      global: { limit: 1, windowMs: 1_000 },
      clock: time.clock,
      scheduler: time.scheduler,
    });
    const metrics = new RuntimeMetrics({
      session: 'paper',
      clock: time.clock,
      speed: 2,
      requests: { stats: { rateLimited: 1 }, budget },
    });
    await budget.acquire();
    const next = budget.acquire();
    await flush();
    time.advance(1_000);
    await next;
    const m = parseMetrics(await metrics.registry.metrics());
    expect(sample(m, 'linesmith_rate_limit_waits_total')).toBe(1);
    expect(sample(m, 'linesmith_rate_limit_wait_seconds_total')).toBe(0.5);
    expect(sample(m, 'linesmith_rate_limited_responses_total')).toBe(1);
    // No status report before a runtime is attached.
    await expect(metrics.report()).rejects.toThrow(/before attach/);
  });

  it('each RuntimeMetrics has a registry of its own', async () => {
    const clock = { now: () => T0 };
    const a = new RuntimeMetrics({ session: 'live', clock });
    const b = new RuntimeMetrics({ session: 'live', clock });
    expect(a.registry).not.toBe(b.registry);
    a.probe.userIn();
    expect(sample(parseMetrics(await a.registry.metrics()), 'linesmith_feed_events_total', { feed: 'user' })).toBe(1);
    expect(sample(parseMetrics(await b.registry.metrics()), 'linesmith_feed_events_total', { feed: 'user' })).toBe(0);
  });
});

describe('a scrape', () => {
  /** Just what the scraped metrics read of a Runtime, with status() counted and its figures settable. */
  function fakeRuntime() {
    const stats = {
      placesSent: 0,
      cancelsSent: 0,
      riskRejected: 0,
      exchangeRejected: 0,
      adopted: 0,
      reconcileClosed: 0,
      foreignFound: 0,
      foreignCancelled: 0,
      unknown: 0,
    };
    const fake = {
      calls: 0,
      figures: { haltReasons: [] as HaltReason[], games: 2, quotedGames: 1, openOrders: 3, worstCase: -40 },
      mode: 'active',
      status(): RuntimeStatus {
        fake.calls++;
        return {
          mode: 'active',
          fills: 0,
          makerVolume: 0,
          takerVolume: 0,
          realizedPnl: 0,
          commissionPaid: 0,
          strategyErrors: { total: 0, byStrategy: {} },
          heartbeatLapses: 0,
          heartbeatCancels: 0,
          orders: stats as RuntimeStatus['orders'],
          ...fake.figures,
        };
      },
      own: {
        fillTotals: () => ({ maker: 0, taker: 0, makerVolume: 0, takerVolume: 0 }),
        gameIDs: () => [],
        projectedLiability: () => 0,
      },
      orders: { stats },
    };
    return fake;
  }

  it('reads Runtime.status() once, and the next scrape reads it afresh', async () => {
    const metrics = new RuntimeMetrics({ session: 'live', clock: { now: () => T0 } });
    const rt = fakeRuntime();
    metrics.attach(rt as unknown as Runtime);

    const first = parseMetrics(await metrics.registry.metrics());
    expect(rt.calls).toBe(1);
    expect(sample(first, 'linesmith_open_orders')).toBe(3);
    expect(sample(first, 'linesmith_games', { state: 'known' })).toBe(2);
    expect(sample(first, 'linesmith_worst_case_liability_account')).toBe(-40);
    expect(sample(first, 'linesmith_halted', { reason: 'price feed down' })).toBeUndefined();

    rt.figures = { haltReasons: ['price feed down'], games: 5, quotedGames: 0, openOrders: 0, worstCase: -7 };
    const second = parseMetrics(await metrics.registry.metrics());
    expect(rt.calls).toBe(2);
    expect(sample(second, 'linesmith_open_orders')).toBe(0);
    expect(sample(second, 'linesmith_games', { state: 'known' })).toBe(5);
    expect(sample(second, 'linesmith_worst_case_liability_account')).toBe(-7);
    expect(sample(second, 'linesmith_halted', { reason: 'price feed down' })).toBe(1);
  });
});

describe('metrics server', () => {
  it('fails with MetricsListenError naming the address when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as AddressInfo).port;
    try {
      const metrics = new RuntimeMetrics({ session: 'live', clock: { now: () => T0 } });
      const err = await startMetricsServer({
        host: '127.0.0.1',
        port,
        registry: metrics.registry,
        status: () => metrics.report(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MetricsListenError);
      expect((err as MetricsListenError).code).toBe('LS_ERR_METRICS_LISTEN');
      expect((err as Error).message).toBe(
        `metrics: cannot listen on 127.0.0.1:${port} (EADDRINUSE); choose another metrics.port, or 0 for a free one`,
      );
    } finally {
      taken.close();
    }
  });
});

describe('metrics config section', () => {
  const BASE =
    'strategies:\n  - id: s\n    module: fixed-spread\nrisk:\n  maxGameLiability: 100\n  maxTotalLiability: 1000\n  maxOrderSize: 10\n  maxOrdersPerGame: 5\n';
  const load = (text: string) =>
    parseConfigText(text, '/tmp/metrics-config.yaml', { resolveStrategy: defaultStrategyResolver(strategies) });

  it('is off by default, on loopback port 9464', async () => {
    expect((await load(BASE)).metrics).toEqual({ enabled: false, host: '127.0.0.1', port: 9464 });
  });

  it('takes enabled, host and port (0 for a free one)', async () => {
    expect((await load(`${BASE}metrics:\n  enabled: true\n  host: 0.0.0.0\n  port: 0\n`)).metrics).toEqual({
      enabled: true,
      host: '0.0.0.0',
      port: 0,
    });
  });

  it('names the line of a bad port or an unknown key', async () => {
    const err = await load(`${BASE}metrics:\n  enabled: yes\n  port: 70000\n  path: /m\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues.map((i) => [i.line, i.path, i.message]);
    expect(issues).toEqual([
      [10, 'metrics.enabled', 'expected true or false'],
      [11, 'metrics.port', 'must be from 0 to 65535 (0 picks a free port)'],
      [12, 'metrics.path', 'unknown key'],
    ]);
  });
});
