import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BacktestInputError } from '../../src/backtest/errors.ts';
import { compareDecisions, parityLines, readDecisions } from '../../src/backtest/parity.ts';
import type { Decision } from '../../src/runtime/runtime.ts';

const intent = (odds: number) => ({ key: 'ml:home', selection: { type: 'moneyline' as const, team: 'home' as const }, odds, size: 10 });
const decision = (at: number, odds: number | null, over: Partial<Decision> = {}): Decision => ({ priceEvents: at, at, strategyId: 's', gameID: 'g', intents: odds === null ? [] : [intent(odds)], ...over });

describe('compareDecisions', () => {
  it('compares instant (whole ms), strategy, game and intents in order, not the feed position', () => {
    const a = [decision(1, 120), decision(2.4, 125), decision(3, null)];
    const b = [decision(1.9, 120, { priceEvents: 99 }), decision(2, 125), decision(3, null)];
    expect(compareDecisions(a, b, 10)).toEqual({ until: 10, recorded: 3, replayed: 3, agreeing: 3, first: null });
  });

  it('names the first difference: other intents, another game, or one list ending first', () => {
    const a = [decision(1, 120), decision(2, 125), decision(3, 130)];
    expect(compareDecisions(a, [decision(1, 120), decision(2, 126), decision(3, 130)], 10).first).toEqual({ index: 1, recorded: a[1], replayed: decision(2, 126) });
    expect(compareDecisions(a, [decision(1, 120), decision(2, 125, { gameID: 'h' })], 10).first?.index).toBe(1);
    expect(compareDecisions(a, a.slice(0, 2), 10)).toMatchObject({ agreeing: 2, first: { index: 2, recorded: a[2], replayed: null } });
  });

  it('leaves out decisions at or after `until`: each run pulls its quotes at its own stop', () => {
    const a = [decision(1, 120), decision(5, null)];
    const b = [decision(1, 120), decision(7, null)];
    expect(compareDecisions(a, b, 5).first).toBeNull();
    expect(compareDecisions(a, b, 6).first).toMatchObject({ index: 1 });
  });

  it('prints agreement in one line and a difference with both sides', () => {
    const a = [decision(Date.UTC(2026, 0, 1), 120)];
    expect(parityLines(compareDecisions(a, a, Date.UTC(2026, 0, 2)))).toEqual(['  parity         the replay made the same 1 decision(s) at the same instants as the recorded session (up to 2026-01-02T00:00:00.000Z)']);
    const lines = parityLines(compareDecisions(a, [], Date.UTC(2026, 0, 2)));
    expect(lines[0]).toBe('  parity         DIFFERS: the first 0 of 1 recorded decision(s) agree (0 replayed, up to 2026-01-02T00:00:00.000Z); decision #1:');
    expect(lines[1]).toContain('recorded 2026-01-01T00:00:00.000Z s on g: 1 intent(s) [{"key":"ml:home"');
    expect(lines[2]).toContain('replayed nothing (the list ends)');
  });
});

describe('readDecisions', () => {
  it('reads one decision per line; a cut or foreign line is reported with its line and skipped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ls-dec-')), 'decisions.ndjson');
    writeFileSync(file, [JSON.stringify(decision(1, 120)), JSON.stringify({ at: 'x' }), '', JSON.stringify(decision(2, null)), '{"at":3,"strat'].join('\n'));
    const r = await readDecisions(file);
    expect(r.decisions.map((d) => [d.at, d.intents.length])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(r.decisions[0]!.intents).toEqual([intent(120)]);
    expect(r.problems.map((p) => [p.line, p.problem])).toEqual([
      [2, 'record'],
      [5, 'json'],
    ]);
  });

  it('a file that is not there is an input error naming it', async () => {
    const err = await readDecisions('/nonexistent/decisions.ndjson').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BacktestInputError);
    expect((err as Error).message).toBe('cannot read the decisions file /nonexistent/decisions.ndjson: no such file or directory');
  });
});
