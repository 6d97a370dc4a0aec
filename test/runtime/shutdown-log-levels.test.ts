import { afterEach, describe, expect, it } from 'vitest';
import { capturedLogger } from '../exchange/support-rest.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { instance, scripted, startRuntime } from './support.ts';

/**
 * An operator reads warnings as "something went wrong". A shutdown asked for is not that: its
 * gate closing and its halt are logged at info. A kill switch is: its gate closing and its
 * halt stay warnings (beside the kill switch's own error).
 */
let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Line = { level: number; msg: string; reason?: string };

async function linesOf(end: 'stop' | 'kill'): Promise<Line[]> {
  t = await startTestSim();
  const log = capturedLogger('info');
  const bot = await startRuntime(t, `user-${end}`, [instance(scripted(() => []))], { logger: log.logger });
  if (end === 'kill') bot.runtime.kill('test');
  await bot.close();
  return log.lines.map((l) => JSON.parse(l) as Line);
}

const GATE = 'order gate closed: no new orders';
const HALT = 'halted: pulling quotes';

describe('runtime: how an end is logged', () => {
  it('a shutdown asked for logs its gate closing and its halt at info, and nothing at warn or above', async () => {
    const lines = await linesOf('stop');
    expect(lines.filter((l) => l.msg === GATE).map((l) => l.level)).toEqual([30]);
    expect(lines.filter((l) => l.msg === HALT).map((l) => l.level)).toEqual([30]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('a kill switch logs its gate closing and its halt as warnings', async () => {
    const lines = await linesOf('kill');
    expect(lines.filter((l) => l.msg === GATE).map((l) => l.level)).toEqual([40]);
    expect(lines.filter((l) => l.msg === HALT).map((l) => l.level)).toEqual([40]);
    expect(lines.some((l) => l.level === 50 && /kill switch/.test(l.msg))).toBe(true);
  });
});
