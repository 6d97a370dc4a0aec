import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestResult } from './types.ts';
import { renderHtmlReport, renderSweepHtml, type SweepRow } from './html.ts';

/** One variant's outcome as the sweep page needs it (the sweep runner's outcomes have this shape). */
export interface SweepReportOutcome {
  readonly variant: Readonly<Record<string, string>>;
  readonly result: BacktestResult | null;
  readonly error: string | null;
}
import type { FillRow, OrderRow } from './types.ts';

export const REPORT_FILES = {
  json: 'report.json',
  html: 'report.html',
  orders: 'orders.csv',
  fills: 'fills.csv',
} as const;

/** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<T extends object>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const lines = [columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => cell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

const FILL_COLUMNS: readonly (keyof FillRow & string)[] = [
  't',
  'txID',
  'orderID',
  'strategy',
  'gameID',
  'market',
  'selection',
  'origin',
  'isPostArb',
  'odds',
  'amount',
  'risk',
  'win',
  'commissionOnWin',
  'commissionOnLoss',
];
const ORDER_COLUMNS: readonly (keyof OrderRow & string)[] = [
  'placedAt',
  'orderID',
  'userReference',
  'strategy',
  'gameID',
  'market',
  'selection',
  'orderType',
  'odds',
  'bet',
  'filled',
  'status',
  'closedAt',
  'editOf',
];

/** The report's JSON text: what the determinism guarantee is about. */
export function reportJson(result: BacktestResult): string {
  return `${JSON.stringify(result.report)}\n`;
}

/** report.json, report.html, orders.csv and fills.csv into `dir` (created if needed). */
export async function writeReport(
  dir: string,
  result: BacktestResult,
): Promise<Record<keyof typeof REPORT_FILES, string>> {
  await mkdir(dir, { recursive: true });
  const paths = {
    json: join(dir, REPORT_FILES.json),
    html: join(dir, REPORT_FILES.html),
    orders: join(dir, REPORT_FILES.orders),
    fills: join(dir, REPORT_FILES.fills),
  };
  await writeFile(paths.json, reportJson(result));
  await writeFile(paths.html, renderHtmlReport(result.report, { extras: result.extras, fills: result.fills }));
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
 * folder and no row.
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
    const paths = await writeReport(join(dir, folder), out.result);
    variants.push(paths.html);
    rows.push({ variant: out.variant, report: out.result.report, href: `${folder}/${REPORT_FILES.html}` });
  }
  const html = join(dir, 'sweep.html');
  await writeFile(html, renderSweepHtml(rows));
  return { html, variants };
}
