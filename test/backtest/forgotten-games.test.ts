import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { loadTape, type Tape } from '../../src/backtest/tape.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';

/**
 * A replay lets go of a game once the exchange would have forgotten it (hours after its
 * settlement), so a replay of months holds the games of the last hours. Letting go changes
 * nothing of the run: a replay that forgets every game as soon as it is settled gives the
 * report, orders and fills of one that keeps them all. paper-seed11-drops lists its games
 * again in the snapshots after each reconnect, so a game forgotten there is named again.
 */
const RECORDINGS = ['paper-seed7', 'paper-seed11-drops', 'paper-seed13-deep'] as const;
const tapes = new Map<string, Tape>();
beforeAll(async () => {
  for (const r of RECORDINGS) tapes.set(r, await loadTape([join('backtest/data', r)]));
});

const settlements = (tape: Tape) => tape.items.filter((it) => it.kind === 'result').length;

describe('games the exchange forgot', () => {
  it.each(RECORDINGS.flatMap((r) => ['fixed-spread', 'post-arb'].map((s) => [r, s] as const)))(
    '%s with %s: forgetting each game once settled gives the same report and rows',
    async (recording, strategy) => {
      const config = await loadConfig(`test/backtest/golden/${strategy}.yaml`, {
        resolveStrategy: defaultStrategyResolver(strategies),
      });
      const tape = tapes.get(recording)!;
      const kept = await runBacktest({ config, tape, logger: silentLogger() });
      const forgotten: string[] = [];
      const forgetting = await runBacktest({
        config,
        tape,
        logger: silentLogger(),
        settledGameRetention: { ms: 0, count: 0 },
        onGameForgotten: (id) => forgotten.push(id),
      });
      // Every settled game the engine knew was let go of, once (the last perhaps after the end).
      expect(forgotten.length).toBeGreaterThanOrEqual(settlements(tape) - 1);
      expect(new Set(forgotten).size).toBe(forgotten.length);
      expect(kept.report.metrics.volume.fills).toBeGreaterThan(0);
      expect(reportJson(forgetting)).toBe(reportJson(kept));
      expect(forgetting.extras).toEqual(kept.extras);
      expect(forgetting.orders).toEqual(kept.orders);
      expect(forgetting.fills).toEqual(kept.fills);
    },
  );

  it('keeps the games by default: none settled in a sample recording is forgotten within its hours', async () => {
    const config = await loadConfig('test/backtest/golden/fixed-spread.yaml', {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const forgotten: string[] = [];
    await runBacktest({
      config,
      tape: tapes.get('paper-seed7')!,
      logger: silentLogger(),
      onGameForgotten: (id) => forgotten.push(id),
    });
    expect(forgotten).toEqual([]);
  });
});
