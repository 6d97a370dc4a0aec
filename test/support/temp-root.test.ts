import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

describe("the test run's temporary directory", () => {
  it('is the one the global setup made, so the run removes what tests leave in it', () => {
    expect(basename(tmpdir())).toMatch(/^linesmith-test-/);
    expect(existsSync(tmpdir())).toBe(true);
  });
});
