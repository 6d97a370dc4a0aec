import { rm } from 'node:fs/promises';
import { openReportRowFiles } from '../backtest/report/csv-rows.ts';
import { pageFill, type PageFill } from '../backtest/report/html.ts';
import type { ReportRowSinks } from '../backtest/report/rows.ts';
import type { FillRow } from '../backtest/report/types.ts';

/**
 * orders.csv and fills.csv of a replay written into its report folder as the rows become
 * final, with the fills as report.html keeps them: what a replay holds then follows its open
 * orders, not the hundreds of thousands of orders a long recording's quoting places. A
 * single backtest and each variant of a sweep write their rows this way.
 */
export class StreamedRows {
  readonly #dir: string;
  #files: ReturnType<typeof openReportRowFiles> | null = null;
  #pageFills: PageFill[] = [];

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * The sinks of one pass over the recording: the files are (re)started empty, and so are
   * the page's fills. A first replay that has to run again from the tape it wrote starts
   * over here.
   */
  start(): ReportRowSinks {
    this.#files?.close();
    const files = openReportRowFiles(this.#dir);
    const pageFills: PageFill[] = [];
    this.#files = files;
    this.#pageFills = pageFills;
    return {
      orders: files.sinks.orders,
      fills: {
        push: (row: FillRow, seq: number) => {
          files.sinks.fills.push(row, seq);
          pageFills.push(pageFill(row));
        },
      },
    };
  }

  /** report.html's fills of the pass last started. */
  get pageFills(): readonly PageFill[] {
    return this.#pageFills;
  }

  /** Writes what is buffered and closes the files. */
  close(): void {
    this.#files?.close();
    this.#files = null;
  }

  /** Closes and removes the files: a replay that failed leaves no rows of a report it never wrote. */
  async discard(): Promise<void> {
    const files = this.#files;
    this.close();
    if (files === null) return;
    await Promise.all([rm(files.paths.orders, { force: true }), rm(files.paths.fills, { force: true })]);
  }
}
