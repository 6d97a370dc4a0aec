import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { BacktestCollector } from '../../src/backtest/report/collector.ts';
import { openReportRowFiles } from '../../src/backtest/report/csv-rows.ts';
import { GroupPnl } from '../../src/backtest/report/group-pnl.ts';
import { SERIES_MAX_ROWS } from '../../src/backtest/report/thinned-series.ts';
import { MemoryRows, type RowSink } from '../../src/backtest/report/rows.ts';
import type { FillRow, OrderRow } from '../../src/backtest/report/types.ts';
import { reportJson, writeReport } from '../../src/backtest/report/write.ts';
import { BacktestExecution, US } from '../../src/backtest/venue/execution.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { invertOdds, oddsFromRank, oddsRank } from '../../src/odds/american.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { manualTime } from '../../src/shared/time.ts';
import { firstFileTape, replayToSideUpdate } from './support-replay.ts';

/**
 * A replay of hours places hundreds of thousands of orders: the collector hands each order's
 * row on once the order ended and keeps only what can still change, so its memory follows
 * the orders open, not the orders placed.
 */

const tape = firstFileTape();

class Captured<T> implements RowSink<T> {
  readonly rows: T[] = [];
  push(row: T): void {
    this.rows.push(row);
  }
}

/**
 * An execution and a collector on the first file's clock, the collector's rows captured,
 * replayed up to the first side update; `odds` rest two ranks off that side's best.
 */
function placeCancelRig() {
  const time = manualTime(tape().items[0]!.t);
  let collector: BacktestCollector | null = null;
  const x = new BacktestExecution({
    time,
    fillModel: { kind: 'conservative', power: 2 },
    balance: 100_000,
    commission: 0.01,
    onOwnEvent: (e) => collector?.onOwnEvent(e),
    onPlaceOutcome: (input, outcome) => collector?.onPlaceOutcome(input, outcome),
  });
  const orders = new Captured<OrderRow>();
  const fills = new Captured<FillRow>();
  const c = new BacktestCollector({
    clock: time.clock,
    execution: x,
    post: time.post,
    rows: { orders, fills },
  });
  collector = c;
  const s = replayToSideUpdate(tape(), time, x);
  const odds = invertOdds(oddsFromRank(oddsRank(s.side().offers[0]!.odds) + 2));
  /** One order of ours placed, then every open one cancelled. */
  const placeAndCancel = () => {
    s.place({ ...s.makerWire, odds, bet: 5, orderType: 'post' });
    for (const o of x.engine.openOrders(US)) x.cancel([o.id]);
  };
  /** One order of ours placed, left resting. */
  const rest = () => s.place({ ...s.makerWire, odds, bet: 5, orderType: 'post' });
  return { time, c, orders, placeAndCancel, rest, gameID: s.u.gameID };
}

describe('report rows as orders end', () => {
  it('keeps only open and just-ended orders however many were placed, and still lists every one', () => {
    const { time, c, orders, placeAndCancel } = placeCancelRig();
    const placed = 600;
    let mostRetained = 0;
    for (let i = 0; i < placed; i++) {
      placeAndCancel();
      time.advance(1_000);
      if (i % 10 === 9) {
        c.sample();
        mostRetained = Math.max(mostRetained, c.retained.orders);
      }
    }
    // Rows leave at samples: at most the ten orders of one sample interval (and those of the one before) wait.
    expect(mostRetained).toBeLessThanOrEqual(20);
    expect(orders.rows.length).toBeGreaterThanOrEqual(placed - 20);
    const r = c.finish({ riskRejected: 0, exchangeRejected: 0, postArb: 0 }, () => null);
    expect(c.retained.orders).toBe(0);
    expect(orders.rows).toHaveLength(placed);
    expect(new Set(orders.rows.map((o) => o.orderID)).size).toBe(placed);
    expect(orders.rows.every((o) => o.status === 'cancelled' && o.closedAt !== null)).toBe(true);
    expect(r.metrics.orders.placed).toBe(placed);
    expect(r.metrics.orders.cancelled).toBe(placed);
    // Handed on, not kept: the result lists none of them.
    expect(r.orders).toHaveLength(0);
  });
});

describe('rows kept in memory', () => {
  it('lists the rows in seq order whatever order they came in, the same list at every call', () => {
    const rows = new MemoryRows<string>();
    const seqs = [0, 3, 1, 2, 6, 4, 5, 7];
    for (const q of seqs) rows.push(`r${q}`, q);
    const want = [...seqs].sort((a, b) => a - b).map((q) => `r${q}`);
    expect(rows.rows()).toEqual(want);
    const listed = rows.rows();
    listed.pop();
    rows.push('r8', 8);
    expect(rows.rows()).toEqual([...want, 'r8']);
  });
});

describe('report rows without samples', () => {
  it('hands an ended order on at the next action of a later instant: a place and cancel loop holds nothing', () => {
    const { time, c, orders, placeAndCancel } = placeCancelRig();
    const placed = 300;
    let mostRetained = 0;
    for (let i = 0; i < placed; i++) {
      placeAndCancel();
      mostRetained = Math.max(mostRetained, c.retained.orders);
      time.advance(1_000);
    }
    // No sample ever came: only the order of the current instant waits (an edit could still change its row).
    expect(mostRetained).toBeLessThanOrEqual(1);
    expect(orders.rows.length).toBe(placed - 1);
    const r = c.finish({ riskRejected: 0, exchangeRejected: 0, postArb: 0 }, () => null);
    expect(c.retained.orders).toBe(0);
    expect(orders.rows).toHaveLength(placed);
    expect(new Set(orders.rows.map((o) => o.orderID)).size).toBe(placed);
    expect(orders.rows.every((o) => o.status === 'cancelled')).toBe(true);
    expect(r.metrics.orders.cancelled).toBe(placed);
  });
});

describe('a replay writing orders.csv and fills.csv as it goes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linesmith-rows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  async function replay(rows?: Parameters<typeof runBacktest>[0]['rows']) {
    const config = await loadConfig('test/backtest/golden/fixed-spread.yaml', {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    return runBacktest({ config, tape: tape(), logger: silentLogger(), ...(rows ? { rows } : {}) });
  }

  it('writes every row the in-memory report lists, and the same report.json', async () => {
    const kept = await replay();
    const inMemory = await writeReport(join(dir, 'memory'), kept);
    const files = openReportRowFiles(join(dir, 'streamed'));
    const streamed = await replay(files.sinks);
    files.close();
    expect(streamed.orders).toHaveLength(0);
    expect(streamed.fills).toHaveLength(0);
    expect(reportJson(streamed)).toBe(reportJson(kept));
    const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
    const [ordersHead, ...orderRows] = lines(files.paths.orders);
    const [wantHead, ...wantRows] = lines(inMemory.orders);
    expect(ordersHead).toBe(wantHead);
    // One row per order placed or edited: each written when its order ended, so in the order they ended.
    expect(orderRows.length).toBe(kept.orders.length);
    expect(orderRows.length).toBeGreaterThan(50);
    expect([...orderRows].sort()).toEqual([...wantRows].sort());
    // A fill's row is final when it happens: fills.csv is the same file.
    expect(readFileSync(files.paths.fills, 'utf8')).toBe(readFileSync(inMemory.fills, 'utf8'));
  }, 60_000);
});

describe('sampled series of a long replay', () => {
  it('hold at most SERIES_MAX_ROWS rows each, evenly spread from the first sample, however many samples came', () => {
    const { time, c, rest, gameID } = placeCancelRig();
    // One order of ours resting: its game gets a liability row at every sample.
    expect(rest().status).toBe('ok');
    const samples = SERIES_MAX_ROWS * 2 + 5;
    // Samples 100 ms apart (the least sampleMs): the order still rests, its game not started, at the last.
    const first = time.clock.now() + 100;
    for (let i = 0; i < samples; i++) {
      time.advance(100);
      c.sample();
    }
    const { series } = c.finish({ riskRejected: 0, exchangeRejected: 0, postArb: 0 }, () => null);
    const liability = series.liability[gameID]!;
    for (const rows of [series.pnl, liability]) {
      expect(rows.length).toBeGreaterThan(SERIES_MAX_ROWS / 2);
      expect(rows.length).toBeLessThanOrEqual(SERIES_MAX_ROWS);
      expect(rows[0]![0]).toBe(first);
      const step = rows[1]![0]! - rows[0]![0]!;
      expect(step).toBe(400);
      expect(rows.every((r, i) => r[0] === first + i * step)).toBe(true);
    }
  });

  it('per P&L group too', () => {
    const groups = new GroupPnl();
    groups.add('fixed-spread');
    for (let i = 0; i < SERIES_MAX_ROWS * 3; i++) groups.sample(i);
    const rows = groups.series()['fixed-spread']!;
    expect(rows.length).toBeLessThanOrEqual(SERIES_MAX_ROWS);
    expect(rows.map((r) => r[0]).slice(0, 3)).toEqual([0, 4, 8]);
  });
});
