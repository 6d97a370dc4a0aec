import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { deserialize } from 'node:v8';
import type { Tape } from '../backtest/tape.ts';
import { TapeFile } from '../backtest/tape/file.ts';
import { writeReport } from '../backtest/report/write.ts';
import { parseConfigText } from '../config/load.ts';
import { silentLogger } from '../shared/logger.ts';
import { runBacktest, type BacktestResult } from './backtest-run.ts';
import type { StrategyResolver } from '../config/types.ts';
import { backtestSettings, type SweepOverrides, type SweepWorkerData } from './sweep.ts';
import { StreamedRows } from './streamed-rows.ts';

/**
 * One variant of a sweep, run the same way wherever it runs: a local sweep's thread
 * (sweep-worker.ts) and a queue worker's thread (queue/variant-thread.ts) both call this,
 * which is what makes their reports byte-identical.
 */
export interface VariantSpec {
  readonly configText: string;
  readonly configPath: string;
  readonly overrides: SweepOverrides;
  /**
   * The folder the variant's full report goes into while it runs: orders.csv and fills.csv
   * a row at a time, report.json and report.html at the end. The result is then its
   * summary (variantSummary), so what a variant holds and hands back does not grow with its
   * orders. Without it the result carries every row.
   */
  readonly reportDir?: string;
}

/** The tape a variant thread replays: the binary tape file, or a serialized in-memory tape. */
export async function openVariantTape(path: string, kind: SweepWorkerData['kind']): Promise<Tape | TapeFile> {
  return kind === 'tape' ? await TapeFile.open(path) : (deserialize(readFileSync(path)) as Tape);
}

/** Parse the variant's config and replay the tape with its overrides; time is measured only to report speed. */
export async function runVariant(
  tape: Tape | TapeFile,
  spec: VariantSpec,
  resolveStrategy: StrategyResolver,
): Promise<{ readonly result: BacktestResult; readonly replayMs: number }> {
  const config = await parseConfigText(spec.configText, spec.configPath, { resolveStrategy });
  const started = performance.now();
  const settings = backtestSettings(config, spec.overrides);
  const replay = { config, tape, logger: silentLogger(), settings };
  if (spec.reportDir === undefined) {
    const result = await runBacktest(replay);
    return { result, replayMs: performance.now() - started };
  }
  const dir = spec.reportDir;
  const rows = new StreamedRows(dir);
  let result: BacktestResult;
  try {
    result = await runBacktest({ ...replay, rows: rows.start() });
    rows.close();
  } catch (err) {
    // A failed variant leaves no folder: the sweep's page lists only the variants that ran.
    rows.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const replayMs = performance.now() - started;
  await writeReport(dir, result, { rowsWritten: true, pageFills: rows.pageFills });
  return { result: variantSummary(result), replayMs };
}

/**
 * What a sweep needs of a variant whose report is in its folder: the metrics, the run and
 * the P&L series (the sweep page's table and chart), without the series per game and book,
 * the mark-outs per fill and report.html's extras.
 */
export function variantSummary(result: BacktestResult): BacktestResult {
  const { sampleMs, pnl } = result.report.series;
  return {
    ...result,
    report: { ...result.report, series: { sampleMs, pnl, liability: {}, quotes: [], markouts: [] } },
    extras: { games: {}, pnlByStrategy: {}, pnlByLeague: {} },
    fills: [],
    orders: [],
  };
}
