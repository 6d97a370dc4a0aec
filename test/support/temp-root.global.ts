import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: one temporary directory for the whole run, removed at its end.
 * Tests, the simulators and CLI processes they start make their scratch directories under
 * `os.tmpdir()`; pointing `TMPDIR` at this run's directory before the workers start (they
 * and their children inherit it) takes every one of them away with the run, including
 * those of a test that failed or timed out before its own cleanup.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'linesmith-test-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch (e) {
      // A process a test started may still be writing there: the run's result stands.
      console.warn(`could not remove the test run's temporary directory ${root}: ${String(e)}`);
    }
  };
}
