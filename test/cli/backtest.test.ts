import { describe, expect, it } from 'vitest';
import { replayProgress, summaryLines, sweepProgress, sweepThroughputLine } from '../../src/cli/backtest.ts';

const metrics = {
  pnl: { settled: 12.5, marked: -3.25, total: 9.25, commissionPaid: 0, commissionAccrued: 0.77 },
  volume: { fills: 4, makerFills: 1, takerFills: 3, maker: 100, taker: 77 },
  orders: {
    placed: 10,
    cancelled: 5,
    edited: 0,
    editsReplacing: 0,
    editsRejected: 0,
    refusedByRisk: 0,
    rejectedByExchange: 0,
    postArb: 3,
    fillRatio: 0.4,
    stakeFillRatio: 0.25,
  },
  markout: { '5s': { fills: 4, total: 1, perStake: 0.01 }, '60s': { fills: 4, total: 2, perStake: 0.02 } },
  maxDrawdown: 5,
  maxLiability: -50,
};

describe('backtest terminal output', () => {
  // A taker's open bets are charged commission that is not paid until they are graded.
  it('prints beside the commission paid the most the open bets can still be charged', () => {
    expect(summaryLines({ metrics, notes: [] })[0]).toBe(
      '  P&L            total 9.25 = settled 12.50 + marked -3.25; commission paid 0.00, at most 0.77 more on open bets',
    );
  });

  it('prints the frames of an unknown type, the malformed frames and the unusable lines the replay skipped', () => {
    const input = {
      events: 5_940,
      priceFrames: 5_000,
      malformedFrames: 1,
      unknownFrameTypes: 3,
      badLines: 2,
      problems: [],
    };
    expect(summaryLines({ metrics, notes: [], input })).toContain(
      '  input          5,940 events replayed; skipped: 3 price frame(s) of a type the client ' +
        'does not know (a live client skips them too), 1 malformed frame(s), 2 unusable line(s)',
    );
    expect(
      summaryLines({
        metrics,
        notes: [],
        input: { ...input, malformedFrames: 0, unknownFrameTypes: 0, badLines: 0 },
      }).some((l) => l.includes('input')),
    ).toBe(false);
  });

  it("counts a sweep's progress in variants, with an ETA once one is done", () => {
    expect(sweepProgress(0, 8, 0)).toBe('sweep 0/8 variants');
    expect(sweepProgress(2, 8, 10)).toBe('sweep 2/8 variants · ETA 30.0 s');
    expect(replayProgress(12_288, 26_745, 0.5)).toBe('replay 12,288/26,745 events · 24,576/s · ETA 0.6 s');
  });

  it("closes a sweep with its events over the sweep's wall time, in all and per worker", () => {
    expect(sweepThroughputLine({ variants: 3, failed: 1, events: 20_000, wallMs: 2_000, workers: 2 })).toBe(
      '  throughput     3 variant(s) (1 failed), 20,000 events replayed in 2.00 s on 2 worker(s): 10,000 events/s in all, 5,000 per worker',
    );
  });
});
