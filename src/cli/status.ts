import type { Command } from 'commander';
import { LinesmithError } from '../shared/errors.ts';
import { StatusUnreachableError } from '../metrics/errors.ts';
import { DEFAULT_STATUS_URL, fetchStatus, statusUrlOf } from '../metrics/status-client.ts';
import { renderStatusPanel } from '../metrics/status-panel.ts';
import { EXIT } from './exit-codes.ts';

interface StatusOptions {
  readonly url: string;
  readonly json?: boolean;
  readonly timeout: string;
}

async function status(o: StatusOptions): Promise<void> {
  try {
    statusUrlOf(o.url);
  } catch (err) {
    process.stderr.write(`linesmith status: --url: ${(err as Error).message}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  const timeoutMs = Number(o.timeout);
  if (!/^\d+$/.test(o.timeout) || timeoutMs < 1) {
    process.stderr.write(`linesmith status: --timeout must be a whole number of milliseconds, got "${o.timeout}"\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  try {
    const report = await fetchStatus(o.url, { timeoutMs });
    process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderStatusPanel(report)}\n`);
  } catch (err) {
    const hint =
      err instanceof StatusUnreachableError
        ? '\n  Is `linesmith run` or `linesmith paper` running with `metrics: { enabled: true }` in its config? ' +
          'It logs its metrics URL at start; pass that as --url.'
        : '';
    process.stderr.write(
      `linesmith status: ${err instanceof LinesmithError ? `${err.message} [${err.code}]` : (err as Error).message}${hint}\n`,
    );
    process.exitCode = EXIT.failure;
  }
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(
      "show a running `run` or `paper` session's status panel, read from its metrics endpoint (metrics.enabled in the config)",
    )
    .option('--url <url>', "the runtime's metrics address, as it logged at start", DEFAULT_STATUS_URL)
    .option('--json', 'print the status report as JSON instead of the panel')
    .option('--timeout <ms>', 'give up after this many milliseconds', '5000')
    .action((o: StatusOptions) => status(o));
}
