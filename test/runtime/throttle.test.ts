import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { manualTime } from '../../src/shared/time.ts';
import { instance, testRuntime } from './support.ts';
import type { Decision } from '../../src/runtime/runtime.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { firstFileTape, simulatedVenue } from '../backtest/support-replay.ts';
import type { StrategyModule } from '../../src/strategy/types.ts';

// The runtime on the backtest's virtual clock: a throttled strategy is evaluated at most once
// per throttle per game, never loses a change made inside its throttle, and a halt pulls
// its quotes at once, throttle or not.

const THROTTLE = 2_000;
const tape = firstFileTape();

const config = (throttleMs: number) => `
strategies:
  - id: probe
    module: probe
    params: {}
    live: keep
    throttleMs: ${throttleMs}
risk:
  maxGameLiability: 500
  maxTotalLiability: 5000
  maxOrderSize: 100
  maxOrdersPerGame: 40
`;

/** Far from any price: evaluations are all it does. Records when it saw each game. */
function probe(seen: { at: number; gameID: string }[]): StrategyModule<Record<string, never>> {
  return {
    name: 'probe',
    description: 'records its evaluations',
    params: z.strictObject({}) as z.ZodType<Record<string, never>>,
    quote: (v) => {
      seen.push({ at: v.now, gameID: v.game.id });
      return v.game.ended ? [] : [{ key: 'h', selection: { type: 'moneyline', team: 'home' }, odds: 900, size: 1 }];
    },
  };
}

async function run(throttleMs: number) {
  const seen: { at: number; gameID: string }[] = [];
  const cfg = await parseConfigText(config(throttleMs), join(process.cwd(), 'throttle.yaml'), {
    resolveStrategy: defaultStrategyResolver({ probe: probe(seen) }),
  });
  await runBacktest({ config: cfg, tape: tape(), logger: silentLogger() });
  return seen;
}

/** Each game's price events (by time), from the tape. */
function changes(): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const it of tape().items) {
    if (it.kind !== 'price' || it.event.type === 'gameUpdate') continue;
    const id = it.event.payload.gameID;
    out.set(id, [...(out.get(id) ?? []), it.t]);
  }
  return out;
}

describe('strategy throttle', () => {
  it('evaluates a game at most once per throttle, and every change within one throttle of when it came', async () => {
    const seen = await run(THROTTLE);
    const byGame = new Map<string, number[]>();
    for (const s of seen) byGame.set(s.gameID, [...(byGame.get(s.gameID) ?? []), s.at]);
    const events = changes();
    const end = tape().items.at(-1)!.t;
    expect(events.size).toBeGreaterThan(1);
    let checked = 0;
    for (const [id, times] of events) {
      const evals = byGame.get(id) ?? [];
      for (let i = 1; i < evals.length; i++)
        expect(evals[i]! - evals[i - 1]!, `${id}: evaluations ${evals[i - 1]} and ${evals[i]}`).toBeGreaterThanOrEqual(
          THROTTLE,
        );
      let j = 0;
      // The run stops at the last record: a change inside the last throttle is never looked at.
      for (const t of times.filter((x) => x < end - THROTTLE)) {
        while (j < evals.length && evals[j]! < t) j++;
        expect(evals[j], `${id}: change at ${t} never evaluated`).toBeDefined();
        expect(evals[j]! - t, `${id}: change at ${t} first evaluated at ${evals[j]}`).toBeLessThanOrEqual(THROTTLE);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1_000);
    // Unthrottled, one evaluation per change at least; throttled, far fewer.
    const unthrottled = await run(0);
    expect(unthrottled.length).toBeGreaterThanOrEqual(checked);
    expect(seen.length).toBeLessThan(unthrottled.length * 0.8);
  });

  it("pulls every game's quotes the moment the strategy is halted, held by its throttle or not, and quotes again when the throttle ends", async () => {
    const time = manualTime(tape().items[0]!.t);
    const venue = simulatedVenue(time, { latencyMs: 10, balance: 10_000 });
    const decisions: Decision[] = [];
    const seen: { at: number; gameID: string }[] = [];
    const runtime = testRuntime(
      venue,
      [instance(probe(seen), { id: 'probe', throttleMs: 60_000, live: { kind: 'keep' } })],
      {
        clock: time.clock,
        scheduler: time.scheduler,
        tickMs: 3_600_000,
        onDecision: (d) => decisions.push(d),
      },
    );
    const settle = async () => {
      do for (let i = 0; i < 4; i++) await null;
      while (venue.takeSettled() > 0);
    };
    let i = 0;
    for (; tape().items[i]!.kind !== 'price'; i++) {
      const it = tape().items[i]!;
      if (it.kind === 'snapshot') venue.snapshot(it.game, it.t);
    }
    await runtime.start();
    await settle();
    // Ten minutes of the recording: busy games get marked inside their throttle.
    const haltAt = tape().items[i]!.t + 10 * 60_000;
    for (let it = tape().items[i]!; it.t < haltAt; it = tape().items[++i]!) {
      await time.advanceToSettling(Math.max(it.t, time.clock.now()), settle);
      if (it.kind === 'price') venue.price(it.event, it.t);
      await settle();
    }
    const quoting = new Map<string, Decision>();
    for (const d of decisions) quoting.set(d.gameID, d);
    const live = [...quoting.values()].filter((d) => d.intents.length > 0).map((d) => d.gameID);
    const lastSeen = new Map(seen.map((s) => [s.gameID, s.at]));
    const now = time.clock.now();
    // Some of them inside their throttle right now (evaluated in the last minute), some not.
    expect(live.filter((g) => now - lastSeen.get(g)! < 60_000).length).toBeGreaterThan(0);
    runtime.setMode('halted', 'probe');
    const pulled = decisions.filter((d) => d.at === now && d.intents.length === 0).map((d) => d.gameID);
    expect(pulled.sort()).toEqual(live.sort());

    // Active again at once: every game is inside its throttle (just evaluated), so each is
    // looked at when it ends, with no event and no tick (an hour away) to wake the loop.
    seen.length = 0;
    runtime.setMode('active', 'probe');
    await time.advanceToSettling(now + 61_000, settle);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((x) => x.at === now + 60_000)).toBe(true);
    expect(live.every((g) => seen.some((x) => x.gameID === g))).toBe(true);
    let stopped = false;
    const stopping = runtime.stop(1_000).finally(() => (stopped = true));
    while (!stopped) await time.advanceToSettling(time.clock.now() + 100, settle);
    await stopping;
  });
});
