import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestResult } from './types.ts';
import { renderHtmlReport } from './html.ts';
import type { FillRow, OrderRow } from './types.ts';

export const REPORT_FILES = { json: 'report.json', html: 'report.html', orders: 'orders.csv', fills: 'fills.csv' } as const;

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

const FILL_COLUMNS: readonly (keyof FillRow & string)[] = ['t', 'txID', 'orderID', 'strategy', 'gameID', 'market', 'selection', 'origin', 'isPostArb', 'odds', 'amount', 'risk', 'win', 'commissionOnWin', 'commissionOnLoss'];
const ORDER_COLUMNS: readonly (keyof OrderRow & string)[] = ['placedAt', 'orderID', 'userReference', 'strategy', 'gameID', 'market', 'selection', 'orderType', 'odds', 'bet', 'filled', 'status', 'closedAt', 'editOf'];

/** The report's JSON text: what the determinism guarantee is about. */
export function reportJson(result: BacktestResult): string {
  return `${JSON.stringify(result.report)}\n`;
}

/** report.json, report.html, orders.csv and fills.csv into `dir` (created if needed). */
export async function writeReport(dir: string, result: BacktestResult): Promise<Record<keyof typeof REPORT_FILES, string>> {
  await mkdir(dir, { recursive: true });
  const paths = {
    json: join(dir, REPORT_FILES.json),
    html: join(dir, REPORT_FILES.html),
    orders: join(dir, REPORT_FILES.orders),
    fills: join(dir, REPORT_FILES.fills),
  };
  await writeFile(paths.json, reportJson(result));
  await writeFile(paths.html, renderHtmlReport(result.report));
  await writeFile(paths.orders, toCsv(ORDER_COLUMNS, result.orders));
  await writeFile(paths.fills, toCsv(FILL_COLUMNS, result.fills));
  return paths;
}
