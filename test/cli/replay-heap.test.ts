import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';

const flags = vi.hoisted(() => [] as string[]);
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  return { ...v8, default: v8, setFlagsFromString: (f: string) => void flags.push(f) };
});

const { registerBacktest } = await import('../../src/cli/backtest.ts');

/** `linesmith backtest <args>` in this process (its V8 flags are what is looked at), output kept. */
async function backtest(args: readonly string[]): Promise<void> {
  const program = new Command().exitOverride();
  registerBacktest(program);
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['backtest', ...args], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("a backtest's heap", () => {
  it(
    'lets the old generation grow to twice what a full collection leaves live, before it replays',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ls-heap-'));
      await backtest([
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
      expect(flags).toContain('--heap-growing-percent=100');
    },
  );
});
