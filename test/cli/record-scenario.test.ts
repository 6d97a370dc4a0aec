import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/sim/market/scenario.ts';
import { RECORDING_SCENARIO } from '../../src/cli/record.ts';
import { linesmith } from '../support/cli.ts';

/**
 * A paper recording on the default market (games listed up to four hours ahead, lasting two
 * to three) settled nothing in two hours. `record --paper` runs the recording scenario
 * instead, whose games finish inside a short recording.
 */
describe('record --paper: the recording scenario', () => {
  it('is a valid scenario whose games all start within minutes and finish inside an hour', async () => {
    const s = await loadScenarioFile(RECORDING_SCENARIO);
    expect(s.horizonMinutes).toBeLessThanOrEqual(15);
    for (const l of s.leagues) expect(l.durationMinutes, l.league).toBeLessThanOrEqual(45);
  });

  it('a one-hour virtual-time recording of the shipped config holds results, and says how much exchange time it recorded', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ls-rec-'));
    const r = await linesmith(
      [
        'record',
        '--config',
        'config/example.yaml',
        '--paper',
        '--virtual-time',
        '--duration',
        '1h',
        '--no-user',
        '--out',
        out,
      ],
      { timeoutMs: 240_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    // The closing status line, the last of them.
    const results = Number([...r.stdout.matchAll(/results (\d+)\s*$/gm)].at(-1)?.[1]);
    expect(results).toBeGreaterThan(5);
    expect(r.stdout).toMatch(/exchange 2026-01-15T13:00:00Z \(1h00m00s recorded\)/);
  }, 300_000);

  it('--scenario needs --paper', async () => {
    const r = await linesmith([
      'record',
      '--config',
      'config/example.yaml',
      '--scenario',
      'config/scenarios/default.yaml',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--scenario sets the simulator of a paper recording: add --paper/);
  }, 60_000);
});
