import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { startSession } from '../../src/app/session.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { linesmith } from '../support/cli.ts';
import { parityConfig } from './support-parity.ts';

/**
 * The parity check on a session as a user runs one: `startSession` on the wall clock, the
 * simulator at real speed, `recording.enabled`. Its decisions come a few ms after the frames
 * that caused them (start-up reads, processing), where the replay decides at the frames'
 * recorded instants, and it pulls its quotes when it stops, while the recorder still runs.
 */
describe('backtest --decisions on a paper session recorded on the wall clock', () => {
  it('agrees with the session (exit 0), the shutdown left out by the stop marker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-parity-wall-'));
    const text = parityConfig({ speed: 1, recordingDir: join(dir, 'rec') });
    const cfg = join(dir, 'wall.yaml');
    writeFileSync(cfg, text);
    const config = await parseConfigText(text, cfg, { resolveStrategy: defaultStrategyResolver(strategies) });
    const session = await startSession({ config, mode: 'paper', logger: silentLogger(), durationMs: 4_000 });
    const summary = await session.done;
    expect(summary).toMatchObject({ fills: 0 });
    const decisionsFile = readdirSync(join(dir, 'rec')).find((f) => f.startsWith('decisions-'))!;
    const lines = readFileSync(join(dir, 'rec', decisionsFile), 'utf8')
      .trim()
      .split('\n');
    expect(lines.length).toBeGreaterThan(5);
    // The marker, then the shutdown's decisions (every quote pulled).
    const marker = lines.findIndex((l) => 'stopping' in (JSON.parse(l) as object));
    expect(marker).toBeGreaterThan(0);
    expect(lines.slice(marker + 1).every((l) => (JSON.parse(l) as { intents: unknown[] }).intents.length === 0)).toBe(
      true,
    );

    const r = await linesmith(
      [
        'backtest',
        '--config',
        cfg,
        '--feed',
        join(dir, 'rec'),
        '--report',
        join(dir, 'report'),
        '--decisions',
        join(dir, 'rec', decisionsFile),
        '--no-progress',
      ],
      { timeoutMs: 60_000 },
    );
    expect(r.stdout).toMatch(/parity {9}the replay made the same \d+ decision\(s\) as the recorded session/);
    expect(r.code).toBe(0);
  }, 60_000);
});
