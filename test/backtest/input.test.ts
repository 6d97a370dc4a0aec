import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BacktestInputError } from '../../src/backtest/errors.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { loadTape } from '../../src/backtest/tape.ts';
import { FILL_COLUMNS, ORDER_COLUMNS, toCsv } from '../../src/backtest/report/csv.ts';
import { renderHtmlReport } from '../../src/backtest/report/html.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import { defaultStrategyResolver } from '../../src/config/index.ts';
import { loadConfig } from '../../src/config/load.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { linesmith } from '../support/cli.ts';

const SAMPLE = 'backtest/data/paper-seed11-drops/feed-20260115T185357190Z-000002.jsonl.gz';

/** A copy of a sample file with line 20 cut in half and line 40 a frame of the wrong shape. */
function corrupted(): { file: string; lines: number } {
  const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
  const lines = gunzipSync(readFileSync(SAMPLE)).toString('utf8').split('\n');
  lines[19] = lines[19]!.slice(0, 50);
  lines[39] = JSON.stringify({ t: JSON.parse(lines[39]!).t, k: 'price', c: 1, d: ['orderUpdate', { gameID: 42 }] });
  const file = join(dir, 'feed-corrupt.jsonl.gz');
  writeFileSync(file, gzipSync(lines.join('\n')));
  return { file, lines: lines.filter((l) => l !== '').length };
}

describe('bad recording input', () => {
  it('reports a corrupt line and a malformed frame with file and line, skips them, and replays the rest', async () => {
    const { file, lines } = corrupted();
    const seen: string[] = [];
    const tape = await loadTape([file], { onProblem: (p) => seen.push(`${p.file}:${p.line}:${p.problem}`) });
    expect(seen).toEqual([`${file}:20:json`, `${file}:40:frame`]);
    expect(tape.stats.badLines).toBe(1);
    expect(tape.stats.malformedFrames).toBe(1);
    expect(tape.problems[1]!.detail).toMatch(/orderUpdate/);
    // Every other record is there: the meta, end and the two bad lines are not replay items.
    expect(tape.items.length).toBe(lines - 4);
  });

  it('--strict stops at the first bad line, naming it', async () => {
    const { file } = corrupted();
    const err = await loadTape([file], { strict: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BacktestInputError);
    expect((err as BacktestInputError).code).toBe('LS_ERR_BACKTEST_INPUT');
    expect((err as Error).message).toContain(`${file}:20: json:`);
  });

  it('a --feed path that is not there stops the load, even with good paths beside it', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'ls-bt-')), 'nope');
    const err = await loadTape([SAMPLE, missing]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BacktestInputError);
    expect((err as Error).message).toBe(`cannot read the recording ${missing}: no such file or directory`);
    const empty = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    await expect(loadTape([empty])).rejects.toThrow(`no recording files (.jsonl.gz, .jsonl) in ${empty}`);
  });

  it('the order --feed names the files in does not matter; records that step back in time are counted', async () => {
    const dir = 'backtest/data/paper-seed11-drops';
    const [first, second] = [
      'feed-20260115T180000000Z-000001.jsonl.gz',
      'feed-20260115T185357190Z-000002.jsonl.gz',
    ].map((f) => join(dir, f));
    const inOrder = await loadTape([first!, second!]);
    const reversed = await loadTape([second!, first!]);
    expect(reversed.items).toEqual(inOrder.items);
    expect(inOrder.late).toBeNull();

    // A file whose records go back 2 s from the one before.
    const lines = gunzipSync(readFileSync(second!))
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    const t = (i: number) => (JSON.parse(lines[i]!) as { t: number }).t;
    const stepped = lines.map((l, i) =>
      i === 10 || i === 11 ? JSON.stringify({ ...JSON.parse(l), t: t(9) - 2_000 + i - 10 }) : l,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'ls-bt-')), 'feed-stepped.jsonl.gz');
    writeFileSync(file, gzipSync(stepped.join('\n') + '\n'));
    const tape = await loadTape([file]);
    expect(tape.late).toEqual({ count: 2, maxStepBackMs: 2_000, first: { file, line: 11 } });
    // Replayed at the time of the record before them: the tape never steps back.
    expect(tape.items.every((it, i) => i === 0 || it.t >= tape.items[i - 1]!.t)).toBe(true);
    const config = await loadConfig('test/backtest/golden/post-arb.yaml', {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const { report } = await runBacktest({ config, tape, logger: silentLogger() });
    expect(report.notes).toContain(
      '2 record(s) are earlier than a record read before them (the first at ' +
        'feed-stepped.jsonl.gz:11, up to 2.000 s back): the recordings overlap in time, or the ' +
        'receive clock stepped back; each was replayed at the time of the record before it',
    );
  });

  it('a file that is not a recording is an error, not an empty replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    const file = join(dir, 'x.jsonl');
    writeFileSync(file, 'hello\n');
    await expect(loadTape([file])).rejects.toBeInstanceOf(BacktestInputError);
  });
});

describe('linesmith backtest (CLI)', () => {
  const cli = (args: string[]) => linesmith(['backtest', ...args], { timeoutMs: 120_000 });

  it('--strict stops at the first bad line and says so, without a "skipped" line; without it, the bad lines are skipped and listed', async () => {
    const { file } = corrupted();
    const out = join(mkdtempSync(join(tmpdir(), 'ls-bt-')), 'out');
    const strict = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      file,
      '--report',
      out,
      '--strict',
      '--no-progress',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`${file}:20: json:`);
    expect(strict.stderr).toContain('(--strict: stopping)');
    expect(strict.stderr).not.toContain('skipped');
    const lenient = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      file,
      '--report',
      out,
      '--no-progress',
    ]);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr.match(/^ {2}skipped /gm)).toHaveLength(2);
  });

  it('fails before the replay on an unknown strategy, with the config line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    const cfg = join(dir, 'bad.yaml');
    writeFileSync(
      cfg,
      readFileSync('test/backtest/golden/post-arb.yaml', 'utf8').replace(
        'module: post-arb',
        'module: no-such-strategy',
      ),
    );
    const r = await cli(['--config', cfg, '--feed', SAMPLE, '--report', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+: .*no-such-strategy/);
    expect(r.stdout).not.toMatch(/loaded/);
  });

  it('fails before the replay on a bad strategy parameter and on a misspelt sweep key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    const cfg = join(dir, 'bad.yaml');
    writeFileSync(
      cfg,
      readFileSync('test/backtest/golden/post-arb.yaml', 'utf8').replace('params: {}', 'params: { minEdge: lots }'),
    );
    const r = await cli(['--config', cfg, '--feed', SAMPLE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/minEdge/);
    const s = await cli(['--config', 'test/backtest/golden/post-arb.yaml', '--feed', SAMPLE, '--sweep', 'nonsense']);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/--sweep/);
    // A path that walks but names no parameter, and a bad value: refused before the recording is read.
    for (const axis of ['strategies.0.params.minEgde=0.01,0.02', 'strategies.0.params.minEdge=0.01,lots']) {
      const v = await cli(['--config', 'test/backtest/golden/post-arb.yaml', '--feed', SAMPLE, '--sweep', axis]);
      expect(v.code).toBe(2);
      expect(v.stderr).toMatch(/--sweep variant strategies\.0\.params\.minE\w+=(0\.01|lots): strategies\.0\.params/);
      expect(v.stdout).not.toMatch(/loaded/);
    }
  });

  // Found in review: `--workers abc` became NaN workers, and the sweep ran no variant at all, silently.
  it('refuses a --workers that is not a whole number of at least 1', async () => {
    for (const bad of ['abc', '0', '1.5']) {
      const r = await cli([
        '--config',
        'test/backtest/golden/post-arb.yaml',
        '--feed',
        SAMPLE,
        '--sweep',
        'strategies.0.params.minEdge=0.01,0.02',
        '--workers',
        bad,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--workers must be a whole number/);
      expect(r.stdout).not.toMatch(/loaded/);
    }
  });

  // Found in use: the flag overrode the axis in every variant, so the rows were labelled with three models and ran one.
  it('refuses --fill-model or --seed with a --sweep axis on the key it sets, before the replay', async () => {
    const fill = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      SAMPLE,
      '--sweep',
      'backtest.fillModel=conservative,probabilistic',
      '--fill-model',
      'conservative',
    ]);
    expect(fill.code).toBe(2);
    expect(fill.stderr).toMatch(
      /--fill-model conservative conflicts with --sweep backtest\.fillModel=conservative,probabilistic/,
    );
    expect(fill.stdout).not.toMatch(/loaded/);
    const seed = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      SAMPLE,
      '--sweep',
      'strategies.0.params.minEdge=0.01,0.02',
      '--sweep',
      'backtest.seed=1,2',
      '--seed',
      '7',
    ]);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/--seed 7 conflicts with --sweep backtest\.seed=1,2/);
    expect(seed.stdout).not.toMatch(/loaded/);
  });

  it("closes a sweep with its throughput over all workers, and shows each variant's commission paid and still open", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    // A flag beside an axis on another key is no conflict.
    const r = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      SAMPLE,
      '--report',
      dir,
      '--sweep',
      'backtest.fillModel=conservative,probabilistic',
      '--seed',
      '5',
      '--workers',
      '2',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}variant +total P&L +settled +marked +comm\. paid +comm\. open \(max\) +fills /m);
    const loaded = Number(/loaded ([\d,]+) events/.exec(r.stdout)![1]!.replace(/,/g, ''));
    const line =
      / {2}throughput +2 variant\(s\), ([\d,]+) events replayed in [\d.]+ s on 2 worker\(s\): [\d,]+ events\/s in all, [\d,]+ per worker\n/.exec(
        r.stdout,
      );
    expect(line, r.stdout).not.toBeNull();
    expect(Number(line![1]!.replace(/,/g, ''))).toBe(2 * loaded);
    // Not a terminal: no progress line, as for a single run.
    expect(r.stderr).toBe('');
  });

  it('writes the report files and prints the summary with its throughput figures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    const r = await cli([
      '--config',
      'test/backtest/golden/post-arb.yaml',
      '--feed',
      SAMPLE,
      '--report',
      dir,
      '--no-progress',
    ]);
    expect(r.code).toBe(0);
    const tapeReused = /loaded [\d,]+ events from 1 file\(s\) in [\d.]+ s \(0 line\(s\) skipped\); tape reused /;
    const tapeWritten =
      /reading the recording and replaying it in one pass; its tape is written as the replay reads it /;
    expect(r.stdout).toMatch(new RegExp(`^(${tapeReused.source}|${tapeWritten.source})`, 'm'));
    expect(r.stdout).toMatch(
      /events replayed in .* events\/s; getting them [\d.]+ s; a minimal read of the recording .* took [\d.]+x the minimal read/,
    );
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { format: string };
    expect(report.format).toBe('linesmith.backtest-report');
    expect(readFileSync(join(dir, 'orders.csv'), 'utf8').split('\n')[0]).toBe(
      'placedAt,orderID,userReference,strategy,gameID,market,selection,orderType,odds,bet,filled,status,closedAt,editOf',
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('writes the rows as the replay makes them, the same report and rows as one kept in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-bt-'));
    const args = ['--config', 'test/backtest/golden/fixed-spread.yaml', '--feed', SAMPLE, '--report', dir];
    const r = await cli([...args, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const config = await loadConfig('test/backtest/golden/fixed-spread.yaml', {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const kept = await runBacktest({ config, tape: await loadTape([SAMPLE]), logger: silentLogger() });
    expect(kept.orders.length).toBeGreaterThan(20);
    expect(kept.fills.length).toBeGreaterThan(0);
    const file = (name: string) => readFileSync(join(dir, name), 'utf8');
    expect(file('report.json')).toBe(reportJson(kept));
    expect(file('report.html')).toBe(renderHtmlReport(kept.report, { extras: kept.extras, fills: kept.fills }));
    expect(file('fills.csv')).toBe(toCsv(FILL_COLUMNS, kept.fills));
    // orders.csv lists each order when it ended: the same rows as placement order lists.
    const lines = (csv: string) => csv.split('\n').filter((l) => l !== '');
    const orders = lines(file('orders.csv'));
    const want = lines(toCsv(ORDER_COLUMNS, kept.orders));
    expect(orders[0]).toBe(want[0]);
    expect(orders.slice(1).sort()).toEqual(want.slice(1).sort());
  });
});
