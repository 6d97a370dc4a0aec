import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cell, FILL_COLUMNS, ORDER_COLUMNS, REPORT_FILES } from './csv.ts';
import type { ReportRowSinks, RowSink } from './rows.ts';

/** Text buffered before a write: a few hundred rows per system call, a bounded amount held. */
const FLUSH_AT = 64 * 1024;

/**
 * A CSV file written a row at a time, as the rows come (orders.csv: in the order the orders
 * ended). Writes are synchronous: the replay is the only work of its thread, and a row
 * waits for no promise.
 */
class CsvRowFile<T extends object> implements RowSink<T> {
  readonly path: string;
  readonly #columns: readonly (keyof T & string)[];
  #fd: number | null;
  #buffer: string[] = [];
  #buffered = 0;
  #rows = 0;

  constructor(path: string, columns: readonly (keyof T & string)[]) {
    this.path = path;
    this.#columns = columns;
    this.#fd = openSync(path, 'w');
    this.#add(columns.join(','));
  }

  /** Rows written so far. */
  get rows(): number {
    return this.#rows;
  }

  push(row: T): void {
    this.#add(this.#columns.map((c) => cell(row[c])).join(','));
    this.#rows++;
  }

  #add(line: string): void {
    this.#buffer.push(line);
    this.#buffered += line.length + 1;
    if (this.#buffered >= FLUSH_AT) this.#flush();
  }

  #flush(): void {
    if (this.#fd === null || this.#buffer.length === 0) return;
    writeSync(this.#fd, `${this.#buffer.join('\n')}\n`);
    this.#buffer = [];
    this.#buffered = 0;
  }

  /** Writes what is buffered and closes the file; later rows are an error of the caller's. */
  close(): void {
    this.#flush();
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

/** orders.csv and fills.csv in `dir` (created if needed), written as a replay goes. */
export function openReportRowFiles(dir: string): {
  readonly sinks: ReportRowSinks;
  readonly paths: { readonly orders: string; readonly fills: string };
  close(): void;
} {
  mkdirSync(dir, { recursive: true });
  const orders = new CsvRowFile(join(dir, REPORT_FILES.orders), ORDER_COLUMNS);
  const fills = new CsvRowFile(join(dir, REPORT_FILES.fills), FILL_COLUMNS);
  return {
    sinks: { orders, fills },
    paths: { orders: orders.path, fills: fills.path },
    close: () => {
      orders.close();
      fills.close();
    },
  };
}
