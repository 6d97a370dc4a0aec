import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestResult } from './types.ts';
import { jsonChunks } from '../../shared/json-chunks.ts';
import { writeChunks } from '../../shared/write-chunks.ts';
import { REPORT_JSON_DEPTH, renderHtmlReportChunks, renderSweepHtml, type PageFill, type SweepRow } from './html.ts';
import { FILL_COLUMNS, ORDER_COLUMNS, REPORT_FILES, toCsv } from './csv.ts';

export { REPORT_FILES };

/** One variant's outcome as the sweep page needs it (the sweep runner's outcomes have this shape). */
export interface SweepReportOutcome {
  readonly variant: Readonly<Record<string, string>>;
  readonly result: BacktestResult | null;
  readonly error: string | null;
  /** The folder its full report was written into while it ran (the result is then its summary); null: write it from the result. */
  readonly reportDir?: string | null;
}

/** The report's JSON text: what the determinism guarantee is about. */
export function reportJson(result: BacktestResult): string {
  return `${JSON.stringify(result.report)}\n`;
}

/** The same text in pieces. */
function* reportJsonChunks(result: BacktestResult): Generator<string> {
  yield* jsonChunks(result.report, REPORT_JSON_DEPTH);
  yield '\n';
}

export interface WriteReportOptions {
  /** orders.csv and fills.csv are in `dir` already, written as the replay went (openReportRowFiles). */
  readonly rowsWritten?: boolean;
  /** report.html's fills, when the result lists none (they went to fills.csv as they came). */
  readonly pageFills?: readonly PageFill[];
}

/** report.json, report.html, orders.csv and fills.csv into `dir` (created if needed). */
export async function writeReport(
  dir: string,
  result: BacktestResult,
  options: WriteReportOptions = {},
): Promise<Record<keyof typeof REPORT_FILES, string>> {
  await mkdir(dir, { recursive: true });
  const paths = {
    json: join(dir, REPORT_FILES.json),
    html: join(dir, REPORT_FILES.html),
    orders: join(dir, REPORT_FILES.orders),
    fills: join(dir, REPORT_FILES.fills),
  };
  // Written in pieces: a long replay's report is some 15 MB of JSON, and the page holds it again.
  await writeChunks(paths.json, reportJsonChunks(result));
  const fills = options.pageFills ? { pageFills: options.pageFills } : { fills: result.fills };
  await writeChunks(paths.html, renderHtmlReportChunks(result.report, { extras: result.extras, ...fills }));
  if (options.rowsWritten) return paths;
  await writeFile(paths.orders, toCsv(ORDER_COLUMNS, result.orders));
  await writeFile(paths.fills, toCsv(FILL_COLUMNS, result.fills));
  return paths;
}

/** The folder of variant `i` (from 0) of a sweep, inside the sweep's folder. */
export function variantFolder(i: number): string {
  return `variant-${String(i + 1).padStart(3, '0')}`;
}

/**
 * A sweep's reports into `dir`: each variant that ran gets its own full report in
 * variantFolder(i), and sweep.html compares them, linking to each. A failed variant has no
 * folder and no row. A variant that wrote its report as it ran (`reportDir`) is only linked.
 */
export async function writeSweepReport(
  dir: string,
  outcomes: readonly SweepReportOutcome[],
): Promise<{ readonly html: string; readonly variants: readonly (string | null)[] }> {
  await mkdir(dir, { recursive: true });
  const rows: SweepRow[] = [];
  const variants: (string | null)[] = [];
  for (const [i, out] of outcomes.entries()) {
    if (!out.result) {
      variants.push(null);
      continue;
    }
    const folder = variantFolder(i);
    const html = out.reportDir
      ? join(out.reportDir, REPORT_FILES.html)
      : (await writeReport(join(dir, folder), out.result)).html;
    variants.push(html);
    rows.push({ variant: out.variant, report: out.result.report, href: `${folder}/${REPORT_FILES.html}` });
  }
  const html = join(dir, 'sweep.html');
  await writeFile(html, renderSweepHtml(rows));
  return { html, variants };
}
