import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linesmith } from '../support/cli.ts';

/**
 * `linesmith backtest` replays in a process that runs the CLI compiled ahead
 * (src/loader/compiled-entry.mjs), not loaded through tsx: its report is the golden
 * report, byte for byte, of the same recording and config run from source.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a backtest through the compiled CLI', () => {
  it.each(['fixed-spread', 'inventory-skew', 'post-arb'])(
    'writes the golden report of %s on paper-seed7',
    async (s) => {
      const report = mkdtempSync(join(tmpdir(), 'ls-compiled-backtest-'));
      dirs.push(report);
      const args = ['--config', `test/backtest/golden/${s}.yaml`, '--feed', 'backtest/data/paper-seed7'];
      const r = await linesmith(['backtest', ...args, '--report', report, '--no-progress']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const json = readFileSync(join(report, 'report.json'));
      const pinned = JSON.parse(readFileSync(`test/backtest/golden/paper-seed7--${s}.json`, 'utf8')) as {
        sha256: string;
      };
      expect(createHash('sha256').update(json).digest('hex')).toBe(pinned.sha256);
    },
  );
});
