import { interval, timer } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, realTime } from '../../src/shared/time.ts';
import { HeartbeatSwitch } from '../../src/sim/heartbeat.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/**
 * Real timers hold at most 2^31−1 ms; Node fires a longer one after 1 ms (with a
 * TimeoutOverflowWarning). The real-time schedulers wait longer by chunks, so a wait of a
 * month is a month: a heartbeat of 30 days, or a game starting 25 days out, once fired at
 * once (the game start every 1 ms, a spin with a warning flood).
 */

const LONG = MAX_TIMER_MS + 10_000;

afterEach(() => {
  vi.useRealTimers();
});

function overflowWarnings(): { readonly count: () => number; readonly stop: () => void } {
  let n = 0;
  const on = (w: Error) => {
    if (w.name === 'TimeoutOverflowWarning') n++;
  };
  process.on('warning', on);
  return { count: () => n, stop: () => process.off('warning', on) };
}

describe('real time: waits past 2^31−1 ms', () => {
  for (const [name, time] of [
    ['wall time', () => realTime()],
    ['sped up 2×', () => realTime({ speed: 2 })],
  ] as const) {
    it(`${name}: a wait past the timer limit does not fire early, and warns of nothing`, async () => {
      const warnings = overflowWarnings();
      const t = time();
      let fired = 0;
      const speed = name === 'wall time' ? 1 : 2;
      const subs = [
        t.scheduler.schedule(() => fired++, LONG * speed),
        timer(LONG * speed, t.scheduler).subscribe(() => fired++),
        interval(LONG * speed, t.scheduler).subscribe(() => fired++),
      ];
      await new Promise((r) => setTimeout(r, 60));
      for (const s of subs) s.unsubscribe();
      warnings.stop();
      expect(fired).toBe(0);
      expect(warnings.count()).toBe(0);
    });
  }

  it('fires once the whole wait has passed, chunk by chunk; an interval keeps its period', () => {
    vi.useFakeTimers();
    const t = realTime();
    const seen: string[] = [];
    t.scheduler.schedule(() => seen.push('once'), 3 * LONG);
    const iv = interval(LONG, t.scheduler).subscribe((i) => seen.push(`tick ${i}`));
    vi.advanceTimersByTime(LONG - 1);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['tick 0']);
    vi.advanceTimersByTime(2 * LONG - 1);
    expect(seen).toEqual(['tick 0', 'tick 1']);
    vi.advanceTimersByTime(1);
    expect([...seen].sort()).toEqual(['once', 'tick 0', 'tick 1', 'tick 2']);
    iv.unsubscribe();
  });

  it('an unsubscribed long wait never fires, whichever chunk it was in', () => {
    vi.useFakeTimers();
    const t = realTime();
    let fired = 0;
    const sub = t.scheduler.schedule(() => fired++, 2 * LONG);
    vi.advanceTimersByTime(LONG);
    sub.unsubscribe();
    vi.advanceTimersByTime(4 * LONG);
    expect(fired).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a heartbeat of a month on real time', () => {
  it('does not lapse at once (it once cancelled every open order within 1 ms)', async () => {
    const lapsed: string[] = [];
    const hb = new HeartbeatSwitch(realTime().scheduler, (userId) => lapsed.push(userId));
    hb.arm('u', 2_592_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(lapsed).toEqual([]);
    expect(hb.isArmed('u')).toBe(true);
    hb.close();
  });
});

describe('the simulator on real time with a game 30 days out', () => {
  let t: TestSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('waits for the start instead of spinning', async () => {
    t = await startTestSim();
    const engine = t.sim.context.engine;
    let advances = 0;
    const advance = engine.advance.bind(engine);
    engine.advance = () => {
      advances++;
      advance();
    };
    const warnings = overflowWarnings();
    t.game({ start: Date.now() + 30 * 86_400_000 });
    t.sim.context.pump.kick();
    await new Promise((r) => setTimeout(r, 100));
    warnings.stop();
    expect(advances).toBeLessThan(3);
    expect(warnings.count()).toBe(0);
  });
});
