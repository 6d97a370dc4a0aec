import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { linesmith, ROOT } from '../support/cli.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import type { EndRecord, MetaRecord } from '../../src/record/format.ts';
import { startRecordingSession } from '../../src/app/record-session.ts';
import { readAll, records, tempDir } from './support.ts';

const SAMPLE = join(ROOT, 'backtest/data/sample.yaml');

describe('linesmith record', () => {
  it('records the paper simulator on a virtual clock for --duration of exchange time, rotating files, and exits 0', async () => {
    const out = await tempDir('cli');
    const r = await linesmith([
      'record',
      '--config',
      SAMPLE,
      '--paper',
      '--virtual-time',
      '--duration',
      '10m',
      '--out',
      out,
      '--max-file-size',
      '256KB',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`recording the simulator on a virtual clock into ${out}`);
    expect(r.stdout).toMatch(
      /frames \d+ \(price \d+, user 0\) · [\d.]+ MB → [\d.]+ MB gz · files \d+ · snapshots 6 · gaps 0/,
    );
    expect(r.stdout).toContain('stopped: duration reached');
    const all = records(await readAll([out]));
    const metas = all.filter((x): x is MetaRecord => x.k === 'meta');
    expect(metas.length).toBeGreaterThan(1);
    expect(metas[0]!.d).toMatchObject({
      venue: { kind: 'paper', paper: { seed: 7, speed: null, scenario: 'sample-scenario.yaml', virtualTime: true } },
      clock: 'exchange',
      rotation: { maxFileBytes: 256 * 1024 },
    });
    const end = all.at(-1) as EndRecord;
    expect(end).toMatchObject({ k: 'end', d: { reason: 'duration reached', files: metas.length } });
    expect(end.t - all[0]!.t).toBe(10 * 60_000);
    expect(all.filter((x) => x.k === 'price').length).toBeGreaterThan(500);
  });

  it('refuses bad options with exit code 2', async () => {
    const noPaper = await linesmith(['record', '--config', SAMPLE, '--virtual-time', '--out', '/tmp/never']);
    expect(noPaper.code).toBe(2);
    expect(noPaper.stderr).toMatch(/--virtual-time .* add --paper/);
    const badSize = await linesmith([
      'record',
      '--config',
      SAMPLE,
      '--paper',
      '--max-file-size',
      'huge',
      '--out',
      '/tmp/never',
    ]);
    expect(badSize.code).toBe(2);
    expect(badSize.stderr).toMatch(/invalid size "huge"/);
  });

  it('stops on SIGINT, flushing and closing the gzip files', async () => {
    const out = await tempDir('sigint');
    const child = spawn(
      process.execPath,
      ['bin/linesmith.js', 'record', '--config', SAMPLE, '--paper', '--out', out, '--no-status'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 15_000;
    while (!stdout.includes('Ctrl-C stops') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 700));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout).toContain('stopped: SIGINT');
    const all = records(await readAll([out]));
    expect(all.at(-1)).toMatchObject({ k: 'end', d: { reason: 'SIGINT' } });
    expect(all.some((x) => x.k === 'snapshot')).toBe(true);
  });

  it('gives the same bytes twice for the same config on a virtual clock, socket drops included', async () => {
    const config = await loadConfig(SAMPLE, { resolveStrategy: defaultStrategyResolver(strategies) });
    const make = async () => {
      const dir = await tempDir('same');
      const s = await startRecordingSession({
        config,
        mode: 'paper',
        dir,
        logger: pino({ level: 'silent' }),
        durationMs: 14 * 60_000,
        virtualTime: { startMs: Date.UTC(2026, 0, 15, 12) },
        dropSocketsEveryMs: 5 * 60_000,
        feeds: ['price'],
      });
      const summary = await s.done;
      return { summary, bytes: await Promise.all(summary.files.map((f) => readFile(f))) };
    };
    const a = await make();
    const b = await make();
    expect(a.summary.gaps).toBe(2);
    expect(a.summary.files.map((f) => f.split('/').at(-1))).toEqual(b.summary.files.map((f) => f.split('/').at(-1)));
    expect(Buffer.concat(a.bytes).equals(Buffer.concat(b.bytes))).toBe(true);
  });
});
