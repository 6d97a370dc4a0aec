import type { Command } from 'commander';
import { loadRunConfigOrReport } from './run-config.ts';
import { positiveDuration } from './duration-flag.ts';
import { EXIT, runtimeFailure, usageError } from './exit-codes.ts';
import { ScenarioError } from '../sim/market/scenario.ts';
import { createRunLogger } from '../config/logging.ts';
import { LinesmithError } from '../shared/errors.ts';
import { startSession } from '../app/session.ts';
import { renderSummary } from '../runtime/summary.ts';

interface TradeOptions {
  readonly config: string;
  readonly duration?: string;
  readonly status?: boolean;
}

async function trade(mode: 'live' | 'paper', o: TradeOptions): Promise<void> {
  const command = mode === 'live' ? 'run' : 'paper';
  let durationMs: number | undefined;
  if (o.duration !== undefined) {
    const d = positiveDuration('--duration', o.duration);
    if (typeof d === 'string') return usageError(command, d);
    durationMs = d;
  }
  const config = await loadRunConfigOrReport(o.config);
  if (!config) return;
  const logger = createRunLogger(config.logging);
  const tty = process.stdout.isTTY === true;
  let lastPrinted = 0;
  const onStatus = (line: string) => {
    if (o.status === false) return;
    if (tty) process.stdout.write(`\r\x1b[2K${line}`);
    else if (Date.now() - lastPrinted >= 5_000) {
      lastPrinted = Date.now();
      process.stdout.write(`${line}\n`);
    }
  };
  let session;
  try {
    session = await startSession({
      config,
      mode,
      logger,
      ...(durationMs !== undefined ? { durationMs } : {}),
      onStatus,
    });
  } catch (err) {
    // The paper section's scenario file is part of the configuration: missing or invalid, it is a usage error.
    if (err instanceof ScenarioError) return usageError(command, `paper.scenario: ${err.message}`);
    return runtimeFailure(
      command,
      `could not start: ${err instanceof LinesmithError ? `${err.message} [${err.code}]` : (err as Error).message}`,
    );
  }
  process.stdout.write(
    `${mode === 'paper' ? 'paper trading on the simulator' : 'trading live'} with ${config.strategies
      .filter((s) => s.enabled)
      .map((s) => `${s.id} (${s.moduleRef})`)
      .join(', ')}; Ctrl-C stops and cancels every order\n`,
  );
  if (session.metricsUrl)
    process.stdout.write(
      `dashboard at ${session.metricsUrl}/ · metrics at ${session.metricsUrl}/metrics; status panel: linesmith status --url ${session.metricsUrl}\n`,
    );
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (++signals > 1) {
      process.stderr.write(`\n${sig} again: exiting without waiting for cancel confirmations\n`);
      process.exit(EXIT.interrupted);
    }
    session.stop(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // SIGUSR2 toggles reduce-only for every strategy: an operator's way to wind risk down without stopping.
  let reducing = false;
  const onReduce = () => {
    reducing = !reducing;
    session.runtime.setMode(reducing ? 'reducing' : 'active');
    process.stderr.write(
      `\n${reducing ? 'reduce-only: only orders that lower the worst case go out' : 'active again'}\n`,
    );
  };
  process.on('SIGUSR2', onReduce);
  const summary = await session.done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGUSR2', onReduce);
  if (tty) process.stdout.write('\r\x1b[2K');
  process.stdout.write(`${renderSummary(summary)}\n`);
  if (summary.openOrdersAtEnd > 0) process.exitCode = EXIT.failure;
}

export function registerTrade(program: Command): void {
  program
    .command('run')
    .description('run the configured strategies live against the venue in the config')
    .requiredOption('--config <file>', 'run configuration (YAML); see config/example.yaml')
    .option('--duration <d>', 'stop after this long (e.g. 45s, 10m); default: until Ctrl-C')
    .option('--no-status', 'no status line')
    .action((o: TradeOptions) => trade('live', o));
  program
    .command('paper')
    .description('paper-trade the configured strategies against the simulator started in-process (synthetic market on)')
    .requiredOption('--config <file>', 'run configuration (YAML); see config/example.yaml')
    .option('--duration <d>', 'stop after this long (e.g. 45s, 10m); default: until Ctrl-C')
    .option('--no-status', 'no status line')
    .action((o: TradeOptions) => trade('paper', o));
}
