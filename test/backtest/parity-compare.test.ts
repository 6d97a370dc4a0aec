import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BacktestInputError } from '../../src/backtest/errors.ts';
import { compareDecisions, parityLines, readDecisions } from '../../src/backtest/parity.ts';
import type { Decision } from '../../src/runtime/runtime.ts';

const intent = (odds: number) => ({
  key: 'ml:home',
  selection: { type: 'moneyline' as const, team: 'home' as const },
  odds,
  size: 10,
});
const decision = (at: number, odds: number | null, over: Partial<Decision> = {}): Decision => ({
  priceEvents: at,
  at,
  strategyId: 's',
  gameID: 'g',
  intents: odds === null ? [] : [intent(odds)],
  ...over,
});

describe('compareDecisions', () => {
  it('matches each strategy-and-game sequence in order: same intents within the tolerance, whatever the feed position', () => {
    const a = [decision(1_000, 120), decision(2_000, 125), decision(3_000, null)];
    const b = [decision(1_016, 120, { priceEvents: 99 }), decision(1_999, 125), decision(3_900, null)];
    expect(compareDecisions(a, b, 10_000)).toEqual({
      until: 10_000,
      toleranceMs: 1_000,
      recorded: 3,
      replayed: 3,
      agreeing: 3,
      first: null,
    });
    // Beyond the tolerance, the same intents are another decision.
    expect(compareDecisions(a, b, 10_000, 500).first).toEqual({ recorded: a[2], replayed: b[2] });
  });

  it('two strategies or games deciding in one instant may come in either order', () => {
    const a = [decision(1_000, 120, { gameID: 'g1' }), decision(1_000, 130, { gameID: 'g2' })];
    expect(compareDecisions(a, [a[1]!, a[0]!], 5_000).first).toBeNull();
  });

  it('names the earliest difference: other intents, a decision one run did not make', () => {
    const a = [decision(1_000, 120), decision(2_000, 125), decision(3_000, 130, { gameID: 'h' })];
    expect(
      compareDecisions(a, [decision(1_000, 120), decision(2_000, 126), decision(3_000, 130, { gameID: 'h' })], 10_000),
    ).toMatchObject({ agreeing: 2, first: { recorded: a[1], replayed: decision(2_000, 126) } });
    expect(compareDecisions(a, [decision(1_000, 120), decision(2_000, 125)], 10_000).first).toEqual({
      recorded: a[2],
      replayed: null,
    });
    const extra = decision(4_000, 140, { gameID: 'k' });
    expect(compareDecisions(a, [...a, extra], 10_000).first).toEqual({ recorded: null, replayed: extra });
  });

  it('stops at `until`: recorded decisions before it, replayed ones up to the tolerance past it may answer them', () => {
    const a = [decision(1_000, 120), decision(5_000, null)];
    // The session's shutdown at 5 s is past `until`; the replay's answer to the first came late, within the tolerance.
    expect(compareDecisions(a, [decision(1_900, 120), decision(9_000, null)], 1_500).first).toBeNull();
    // A replayed decision after `until` that answers nothing is not a difference; before it, it is.
    expect(compareDecisions([], [decision(5_200, 120)], 5_000).first).toBeNull();
    expect(compareDecisions([], [decision(4_800, 120)], 5_000).first).toEqual({
      recorded: null,
      replayed: decision(4_800, 120),
    });
  });

  it('prints agreement in one line and a difference with both sides', () => {
    const a = [decision(Date.UTC(2026, 0, 1), 120)];
    expect(parityLines(compareDecisions(a, a, Date.UTC(2026, 0, 2)))).toEqual([
      '  parity         the replay made the same 1 decision(s) as the recorded session, at the ' +
        'same instants (up to 2026-01-02T00:00:00.000Z, instants within 1000 ms)',
    ]);
    const lines = parityLines(compareDecisions(a, [], Date.UTC(2026, 0, 2)));
    expect(lines[0]).toBe(
      '  parity         DIFFERS: 0 of 1 recorded decision(s) agree (0 replayed, up to ' +
        '2026-01-02T00:00:00.000Z, instants within 1000 ms); the first difference:',
    );
    expect(lines[1]).toContain('recorded 2026-01-01T00:00:00.000Z s on g: 1 intent(s) [{"key":"ml:home"');
    expect(lines[2]).toContain('replayed nothing there');
  });
});

describe('readDecisions', () => {
  const file = (lines: string[]) => {
    const f = join(mkdtempSync(join(tmpdir(), 'ls-dec-')), 'decisions.ndjson');
    writeFileSync(f, lines.join('\n'));
    return f;
  };

  it('reads one decision per line and the stop marker; a cut or foreign line is reported with its line and skipped', async () => {
    const f = file([
      JSON.stringify(decision(1, 120)),
      JSON.stringify({ at: 'x' }),
      '',
      JSON.stringify(decision(2, null)),
      JSON.stringify({ stopping: 7 }),
      '{"at":3,"strat',
    ]);
    const r = await readDecisions(f);
    expect(r.decisions.map((d) => [d.at, d.intents.length])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(r.stoppingAt).toBe(7);
    expect(r.problems.map((p) => [p.line, p.problem])).toEqual([
      [2, 'record'],
      [6, 'json'],
    ]);
    await expect(readDecisions(f, { strict: true })).rejects.toThrow(`${f}:2: record:`);
  });

  it('keeps intents as written: a strategy that puts `key` last still compares equal to itself', async () => {
    const d: Decision = {
      priceEvents: 0,
      at: 1,
      strategyId: 's',
      gameID: 'g',
      intents: [
        {
          selection: { type: 'moneyline', team: 'home' },
          odds: 120,
          size: 10,
          key: 'k',
        } as Decision['intents'][number],
      ],
    };
    const r = await readDecisions(file([JSON.stringify(d)]));
    expect(compareDecisions(r.decisions, [d], 10).first).toBeNull();
  });

  it('a file that is not there is an input error naming it', async () => {
    const err = await readDecisions('/nonexistent/decisions.ndjson').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BacktestInputError);
    expect((err as Error).message).toBe(
      'cannot read the decisions file /nonexistent/decisions.ndjson: no such file or directory',
    );
  });
});
