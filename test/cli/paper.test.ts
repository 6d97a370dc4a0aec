import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesmith, ROOT } from '../support/cli.ts';

describe('linesmith paper', () => {
  it('paper-trades config/example.yaml, prints a summary and leaves no open order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-paper-'));
    // The example with its log file moved out of the repository.
    const example = await readFile(join(ROOT, 'config/example.yaml'), 'utf8');
    const config = join(dir, 'paper.yaml');
    await writeFile(
      config,
      example
        .replace(/^(\s*file:\s*).*linesmith\.log.*$/m, `$1${join(dir, 'run.log')}`)
        .replace(/scenario: scenarios\/default\.yaml/, `scenario: ${join(ROOT, 'config/scenarios/default.yaml')}`)
        .replace(/\.\.\/STOP/, join(dir, 'STOP'))
        .replace(/\.\.\/recordings/, join(dir, 'rec')),
    );
    const r = await linesmith(['paper', '--config', config, '--duration', '6s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/paper trading on the simulator with spread-nba-nfl \(fixed-spread\)/);
    expect(r.stdout).toMatch(/run summary/);
    const sent = Number(/orders sent\s+(\d+)/.exec(r.stdout)?.[1]);
    expect(sent).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/open orders left\s+0/);
    // The exchange's heartbeat switch never pulled the quotes (its timeout is wall time at any speed).
    expect(r.stdout).toMatch(/heartbeat lapses\s+none/);
  });

  it('names the file, line and field of a config error and exits 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-paper-'));
    const config = join(dir, 'bad.yaml');
    await writeFile(
      config,
      'paper:\n  seed: 1\nstrategies:\n  - id: a\n    module: fixed-spread\nrisk:\n' +
        '  maxGameLiability: lots\n  maxTotalLiability: 100\n  maxOrderSize: 10\n' +
        '  maxOrdersPerGame: 5\n',
    );
    const r = await linesmith(['paper', '--config', config, '--duration', '1s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${config}:7:`);
    expect(r.stderr).toMatch(/risk\.maxGameLiability/);
  });
});
