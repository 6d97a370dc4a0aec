import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesmith } from '../support/cli.ts';

/**
 * Every example a `--help` shows runs from a clone's root and exits 0. They are read from the
 * help text itself, so an example added there is run here. To keep this file quick, output
 * directories go to a temporary directory, durations are shortened and the sweep replays
 * the smallest sample recording; the commands, configs and keys are the ones shown.
 */
const COMMANDS = ['demo', 'engine-demo', 'sim', 'account', 'run', 'paper', 'record', 'backtest', 'status'];

function examplesOf(help: string): string[][] {
  return help
    .split('\n')
    .filter((l) => l.startsWith('  $ linesmith '))
    .map((l) => l.slice('  $ linesmith '.length).trim().split(/\s+/));
}

async function shortened(args: readonly string[]): Promise<string[]> {
  const out = [...args];
  const set = (flag: string, value: string) => {
    const i = out.indexOf(flag);
    if (i >= 0) out[i + 1] = value;
  };
  const tmp = await mkdtemp(join(tmpdir(), 'ls-help-'));
  set('--report', join(tmp, 'report'));
  set('--out', join(tmp, 'out'));
  set('--seconds', '3');
  set('--duration', out.includes('--virtual-time') ? '20m' : '3s');
  return out.map((a) => a.replace('backtest/data/paper-seed7', 'backtest/data/paper-seed13-deep'));
}

describe('the examples of every --help', () => {
  it('are there for the commands a user starts with', async () => {
    for (const c of ['paper', 'record', 'backtest'])
      expect(examplesOf((await linesmith([c, '--help'])).stdout).length, c).toBeGreaterThan(0);
  }, 120_000);

  for (const command of COMMANDS) {
    it(`${command}: each example runs and exits 0`, async () => {
      const help = await linesmith([command, '--help']);
      expect(help.code).toBe(0);
      for (const example of examplesOf(help.stdout)) {
        const r = await linesmith(await shortened(example), { timeoutMs: 150_000 });
        expect(r.code, `linesmith ${example.join(' ')}\n${r.stderr.slice(0, 2000)}`).toBe(0);
      }
    }, 300_000);
  }
});
