import type { FillRow, OrderRow } from './types.ts';

export const REPORT_FILES = {
  json: 'report.json',
  html: 'report.html',
  orders: 'orders.csv',
  fills: 'fills.csv',
} as const;

/** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv<T extends object>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const lines = [columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => cell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

export const FILL_COLUMNS: readonly (keyof FillRow & string)[] = [
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
export const ORDER_COLUMNS: readonly (keyof OrderRow & string)[] = [
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
