import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configNamesBuiltInStrategiesOnly, REPLAY_SEMI_SPACE_MB } from '../../src/loader/replay-process.mjs';
import { ROOT } from '../support/cli.ts';

/**
 * `linesmith backtest` runs in a child process started with the replay's young generation
 * (V8 reads its size only at start), which the launcher waits for and passes signals to.
 */
function startBacktest(env: Readonly<Record<string, string>> = {}, config = 'test/backtest/golden/fixed-spread.yaml') {
  const report = mkdtempSync(join(tmpdir(), 'ls-replay-process-'));
  const args = ['bin/linesmith.js', 'backtest', '--config', config];
  const p = spawn(
    process.execPath,
    [...args, '--feed', 'backtest/data/paper-seed7', '--report', report, '--no-progress'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const started = once(p.stdout, 'data');
  return { p, started };
}

/** The processes whose parent is `pid`: pid and command line. */
function childrenOf(pid: number): { pid: number; args: string }[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps exits 1 when it lists none.
  }
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => ({ pid: Number(l.split(/\s+/)[0]), args: l.replace(/^\d+\s+/, '') }));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the process a backtest runs in', () => {
  it('is a child started with the replay’s semi-space size, running the compiled CLI, and a kill of the launcher reaches it', async () => {
    const { p, started } = startBacktest();
    await started;
    const children = childrenOf(p.pid!);
    expect(children).toHaveLength(1);
    expect(children[0]!.args).toContain(`--max-semi-space-size=${REPLAY_SEMI_SPACE_MB} `);
    expect(children[0]!.args).toMatch(
      /node_modules\/\.cache\/linesmith\/compiled\/[0-9a-f-]+\/main\.mjs backtest --config/,
    );
    p.kill('SIGTERM');
    const [code, signal] = (await once(p, 'exit')) as [number | null, NodeJS.Signals | null];
    // Ended as the command was: by the signal.
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    for (let i = 0; i < 50 && alive(children[0]!.pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(children[0]!.pid)).toBe(false);
  });

  it('runs the CLI from source when a strategy of the config is in a file of its own', async () => {
    const { p, started } = startBacktest({}, 'test/backtest/fixtures/exiting-post-arb.yaml');
    await started;
    const children = childrenOf(p.pid!);
    expect(children).toHaveLength(1);
    expect(children[0]!.args).toContain(`--max-semi-space-size=${REPLAY_SEMI_SPACE_MB} `);
    expect(children[0]!.args).toMatch(/bin\/linesmith\.js backtest --config/);
    const [code] = (await once(p, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('is the launcher itself when the process was given a size of its own', async () => {
    const { p, started } = startBacktest({ NODE_OPTIONS: '--max-semi-space-size=16' });
    await started;
    expect(childrenOf(p.pid!).filter((c) => c.args.includes('linesmith'))).toEqual([]);
    const [code] = (await once(p, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});

describe('configNamesBuiltInStrategiesOnly', () => {
  const config = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-replay-config-'));
    writeFileSync(join(dir, 'c.yaml'), text);
    return join(dir, 'c.yaml');
  };
  it('is true for built-in strategies by name, with --config FILE or --config=FILE', () => {
    const file = config('strategies:\n  - { id: a, module: fixed-spread }\n  - { id: b, module: post-arb }\n');
    expect(configNamesBuiltInStrategiesOnly(['--config', file, '--feed', 'x'])).toBe(true);
    expect(configNamesBuiltInStrategiesOnly([`--config=${file}`])).toBe(true);
  });
  it('is false for a strategy in a file, a config it cannot read, or none named', () => {
    expect(
      configNamesBuiltInStrategiesOnly(['--config', config('strategies:\n  - { id: a, module: ./mine.ts }\n')]),
    ).toBe(false);
    expect(
      configNamesBuiltInStrategiesOnly(['--config', config('strategies:\n  - { id: a, module: /abs/mine.ts }\n')]),
    ).toBe(false);
    expect(configNamesBuiltInStrategiesOnly(['--config', config('strategies: [\n')])).toBe(false);
    expect(configNamesBuiltInStrategiesOnly(['--config', '/no/such/file.yaml'])).toBe(false);
    expect(configNamesBuiltInStrategiesOnly(['--feed', 'x'])).toBe(false);
  });
});
