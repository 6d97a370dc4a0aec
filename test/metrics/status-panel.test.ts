import { describe, expect, it } from 'vitest';
import { formatSeconds, formatUptime, renderStatusPanel } from '../../src/metrics/status-panel.ts';
import { StatusReport } from '../../src/metrics/status-report.ts';

const REPORT: StatusReport = StatusReport.parse({
  format: 'linesmith-status/1',
  session: 'paper',
  uptimeSeconds: 134.7,
  mode: 'halted',
  haltReasons: ['price feed down', 'user feed gap: reconciling'],
  games: 40,
  quotedGames: 12,
  openOrders: 23,
  orders: { placesSent: 410, cancelsSent: 380, riskRejected: 2, exchangeRejected: 1, unknown: 0 },
  fills: { maker: 50, taker: 7, makerVolume: 1234.5, takerVolume: 80 },
  worstCase: -812.334,
  topGames: [
    { gameID: 'g1', name: 'NBA Phoenix Suns @ Golden State Warriors', worstCase: -212.1 },
    { gameID: 'g2', name: 'NFL Baltimore Ravens @ Philadelphia Eagles', worstCase: -150 },
  ],
  realizedPnl: 12.5,
  feeds: {
    price: { status: 'reconnecting', reconnects: 1, events: 900, idleSeconds: 3.2, epochLagSeconds: 0.0042 },
    user: { status: 'open', reconnects: 0, events: 30, idleSeconds: null, epochLagSeconds: null },
    orders: null,
  },
  rateLimit: { waits: 2, waitSeconds: 0.4, responses429: 1 },
  reconcile: { adopted: 3, closed: 1, foreign: 2, foreignCancelled: 0 },
  tickToOrder: { count: 412, p50Seconds: 0.00005, p99Seconds: 0.0003 },
});

describe('renderStatusPanel', () => {
  it('shows mode and halt reasons, games, orders, fills, worst case and top games, feeds, rate limits, reconciliation and tick-to-order', () => {
    expect(renderStatusPanel(REPORT)).toBe(
      [
        'linesmith paper · up 2m 14s · HALTED',
        '  halted by       price feed down; user feed gap: reconciling',
        '  games           12 quoted of 40',
        '  orders          23 open · 410 placed, 380 cancels sent · refused: 2 by risk, 1 by the exchange',
        '  fills           57 (maker 50, taker 7) · volume maker 1234.50, taker 80.00',
        '  worst case      -812.33 over all games · settled P&L 12.50',
        '                     -212.10  NBA Phoenix Suns @ Golden State Warriors',
        '                     -150.00  NFL Baltimore Ravens @ Philadelphia Eagles',
        '  feeds           price reconnecting, lag 4.20 ms, last event 3.20 s ago, 1 reconnect',
        '                  user open, no event yet, 0 reconnects',
        '  rate limits     2 waits, 400.0 ms waited · 1 × 429',
        '  reconciliation  adopted 3 · closed 1 · foreign 2 (cancelled 0)',
        '  tick-to-order   p50 50 µs · p99 300 µs (412 samples)',
      ].join('\n'),
    );
  });

  it('leaves out the halt line when active, shows the orders socket when used, and says when nothing is measured yet', () => {
    const panel = renderStatusPanel({
      ...REPORT,
      mode: 'active',
      haltReasons: [],
      topGames: [],
      feeds: { ...REPORT.feeds, orders: { status: 'open', reconnects: 2 } },
      rateLimit: null,
      tickToOrder: { count: 0, p50Seconds: null, p99Seconds: null },
    });
    expect(panel.split('\n')[0]).toBe('linesmith paper · up 2m 14s · ACTIVE');
    expect(panel).not.toContain('halted by');
    expect(panel).toContain('orders socket open, 2 reconnects');
    expect(panel).toContain('rate limits     not measured');
    expect(panel).toContain('tick-to-order   no orders from price events yet');
  });
});

describe('formatting', () => {
  it('durations read at a glance', () => {
    expect([
      formatSeconds(null),
      formatSeconds(0),
      formatSeconds(0.0000183),
      formatSeconds(0.0042),
      formatSeconds(0.25),
      formatSeconds(3.21),
      formatSeconds(42.4),
    ]).toEqual(['—', '0 s', '18 µs', '4.20 ms', '250.0 ms', '3.21 s', '42 s']);
    expect([formatUptime(5.9), formatUptime(75), formatUptime(3725), formatUptime(3 * 86400 + 7200)]).toEqual([
      '5s',
      '1m 15s',
      '1h 02m',
      '3d 02h',
    ]);
  });
});
