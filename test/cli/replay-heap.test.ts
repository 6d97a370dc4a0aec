import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerBacktest } from '../../src/cli/backtest.ts';

/** `linesmith backtest <args>` in this process (its V8 flags are what is looked at), output kept. */
async function backtest(args: readonly string[]): Promise<string[]> {
  const program = new Command().exitOverride();
  registerBacktest(program);
  const flags: string[] = [];
  // Recorded, not set: the flag is the test worker's too, shared with the files it runs next.
  vi.spyOn(v8, 'setFlagsFromString').mockImplementation((f: string) => void flags.push(f));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['backtest', ...args], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  return flags;
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("a backtest's heap", () => {
  it(
    'lets the old generation grow to one and a half times what a full collection leaves live, before it replays',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ls-heap-'));
      const flags = await backtest([
        '--config',
        'bench/backtest-quiet.yaml',
        '--feed',
        'backtest/data/paper-seed13-deep',
        '--tape-dir',
        join(dir, 'tapes'),
        '--report',
        join(dir, 'report'),
        '--no-progress',
      ]);
      expect(process.exitCode ?? 0).toBe(0);
      expect(flags).toContain('--heap-growing-percent=50');
    },
  );
});
