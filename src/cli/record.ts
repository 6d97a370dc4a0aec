import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { loadRunConfigOrReport } from './run-config.ts';
import { positiveDuration } from './duration-flag.ts';
import { EXIT, runtimeFailure, usageError } from './exit-codes.ts';
import { ScenarioError } from '../sim/market/scenario.ts';
import { createRunLogger } from '../config/logging.ts';
import { LinesmithError } from '../shared/errors.ts';
import type { RecorderStats, RecorderSummary } from '../record/feed-recorder.ts';
import type { FeedName } from '../record/format.ts';
import { startRecordingSession } from '../app/record-session.ts';
import { CliValueError } from './errors.ts';

interface RecordOptions {
  readonly config: string;
  readonly out?: string;
  readonly duration?: string;
  readonly paper?: boolean;
  readonly virtualTime?: boolean;
  readonly start?: string;
  readonly maxFileSize?: string;
  readonly dropSocketsEvery?: string;
  readonly user: boolean;
  readonly prefix?: string;
  readonly scenario?: string;
  readonly status: boolean;
}

/**
 * The simulator's scenario of a paper recording when neither --scenario nor the config's
 * paper section names one: games that start within minutes and last under an hour, so a
 * short recording holds their results (the built-in default's settle none in two hours).
 */
export const RECORDING_SCENARIO = fileURLToPath(new URL('../../config/scenarios/recording.yaml', import.meta.url));

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `64MB`, `512k`, `1GiB` (binary units), or a plain number of bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined)
    throw new CliValueError(`invalid size ${JSON.stringify(text)} (write e.g. 64MB, 512KB or 1GB)`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (!(bytes >= 1024)) throw new CliValueError(`size ${JSON.stringify(text)} is below 1KB`);
  return bytes;
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** `1h20m05s`: exchange time recorded so far. */
function span(ms: number): string {
  const t = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m${sec}s` : `${m}m${sec}s`;
}

/**
 * The status line; with `exchange` (a paper recording, whose clock runs ahead of the wall),
 * the exchange time reached and how much of it is recorded, which is what `--duration` counts.
 */
export function recordStatusLine(
  s: RecorderStats,
  elapsedSeconds: number,
  exchange?: { readonly now: number; readonly startedAt: number },
): string {
  const frames = s.frames.price + s.frames.user;
  const clock = exchange
    ? ` · exchange ${new Date(exchange.now).toISOString().slice(0, 19)}Z (${span(exchange.now - exchange.startedAt)} recorded)`
    : '';
  return (
    `recording ${elapsedSeconds.toFixed(0)}s wall${clock} · frames ${frames} (price ${s.frames.price}, ` +
    `user ${s.frames.user}) · ${mb(s.bytes)} → ${mb(s.compressedBytes)} gz · files ${s.files.length} · ` +
    `snapshots ${s.snapshots} · gaps ${s.gaps} · results ${s.results}`
  );
}

const usage = (message: string): void => usageError('record', message);

async function record(o: RecordOptions): Promise<void> {
  let durationMs: number | undefined;
  let maxFileBytes: number | undefined;
  let startMs: number | undefined;
  let dropSocketsEveryMs: number | undefined;
  for (const [flag, text, set] of [
    ['--duration', o.duration, (ms: number) => (durationMs = ms)],
    ['--drop-sockets-every', o.dropSocketsEvery, (ms: number) => (dropSocketsEveryMs = ms)],
  ] as const) {
    if (text === undefined) continue;
    const d = positiveDuration(flag, text);
    if (typeof d === 'string') return usage(d);
    set(d);
  }
  try {
    if (o.maxFileSize !== undefined) maxFileBytes = parseSize(o.maxFileSize);
  } catch (err) {
    return usage(`--max-file-size: ${(err as Error).message}`);
  }
  if (o.virtualTime && !o.paper) return usage('--virtual-time drives the simulator of a paper recording: add --paper');
  if (dropSocketsEveryMs !== undefined && !o.paper)
    return usage('--drop-sockets-every is a simulator fault: add --paper');
  if (o.scenario !== undefined && !o.paper)
    return usage('--scenario sets the simulator of a paper recording: add --paper');
  if (o.start !== undefined) {
    if (!o.virtualTime) return usage('--start sets the virtual clock: it needs --virtual-time');
    startMs = Date.parse(o.start);
    if (!Number.isFinite(startMs)) return usage(`--start: not an ISO 8601 time: ${JSON.stringify(o.start)}`);
  }
  const loaded = await loadRunConfigOrReport(o.config);
  if (!loaded) return;
  // --scenario, else the paper section's, else the recording scenario (where the built-in default would settle nothing in hours).
  const scenario = o.scenario !== undefined ? resolve(o.scenario) : (loaded.paper?.scenario ?? RECORDING_SCENARIO);
  const config = o.paper && loaded.paper ? { ...loaded, paper: { ...loaded.paper, scenario } } : loaded;
  const dir = o.out !== undefined ? resolve(o.out) : config.recording.dir;
  if (dir === undefined) return usage(`where to? give --out DIR, or recording.dir in ${config.source}`);
  const logger = createRunLogger(config.logging);
  const feeds: FeedName[] = o.user ? ['price', 'user'] : ['price'];
  let session;
  try {
    session = await startRecordingSession({
      config,
      mode: o.paper ? 'paper' : 'live',
      dir,
      logger,
      feeds,
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
      ...(dropSocketsEveryMs !== undefined ? { dropSocketsEveryMs } : {}),
      ...(o.prefix !== undefined ? { prefix: o.prefix } : {}),
      ...(o.virtualTime ? { virtualTime: { startMs: startMs ?? DEFAULT_VIRTUAL_START } } : {}),
    });
  } catch (err) {
    if (err instanceof ScenarioError) return usage(`paper.scenario: ${err.message}`);
    return runtimeFailure(
      'record',
      `could not start: ${err instanceof LinesmithError ? `${err.message} [${err.code}]` : (err as Error).message}`,
    );
  }
  const what = o.paper ? (o.virtualTime ? 'the simulator on a virtual clock' : 'the simulator') : 'the live venue';
  process.stdout.write(`recording ${what} into ${dir}; Ctrl-C stops and closes the files\n`);

  const tty = process.stdout.isTTY === true;
  const started = Date.now();
  const exchangeStarted = session.clock.now();
  const exchange = () => (o.paper ? { now: session.clock.now(), startedAt: exchangeStarted } : undefined);
  let lastPrinted = 0;
  const ticker = setInterval(() => {
    if (!o.status) return;
    const line = recordStatusLine(session.recorder.stats, (Date.now() - started) / 1000, exchange());
    if (tty) process.stdout.write(`\r\x1b[2K${line}`);
    else if (Date.now() - lastPrinted >= 5_000) {
      lastPrinted = Date.now();
      process.stdout.write(`${line}\n`);
    }
  }, 1_000);
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (++signals > 1) {
      process.stderr.write(`\n${sig} again: exiting without closing the files (the last records may be cut off)\n`);
      process.exit(EXIT.interrupted);
    }
    session.stop(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let summary: RecorderSummary;
  try {
    summary = await session.done;
  } catch (err) {
    process.stderr.write(
      `\nlinesmith record: the recording stopped on an error (its files are closed): ${(err as Error).message}\n`,
    );
    process.exitCode = EXIT.failure;
    return;
  } finally {
    clearInterval(ticker);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (tty) process.stdout.write('\r\x1b[2K');
  process.stdout.write(
    `${recordStatusLine(summary, (Date.now() - started) / 1000, exchange())}\nstopped: ${summary.reason}\n${summary.files.map((f) => `  ${f}`).join('\n')}\n`,
  );
  if (summary.error) {
    process.stderr.write(`linesmith record: the recording is incomplete: ${summary.error.message}\n`);
    process.exitCode = EXIT.failure;
  }
}

/** Noon UTC: a recording of up to twelve hours stays within one UTC day, in one file. */
const DEFAULT_VIRTUAL_START = Date.UTC(2026, 0, 15, 12);

export function registerRecord(program: Command): void {
  program
    .command('record')
    .description(
      "record the price and user feeds the config's strategies would watch, with orderbook snapshots, gaps and results, to gzip JSON Lines",
    )
    .requiredOption('--config <file>', "run configuration (YAML): its strategies' interests pick what is recorded")
    .option('--out <dir>', 'directory to write to (default: recording.dir of the config)')
    .option('--duration <d>', 'stop after this long (e.g. 45s, 10m); default: until Ctrl-C')
    .option(
      '--paper',
      "record the simulator started in-process from the config's paper section (synthetic market on) instead of the live venue",
    )
    .option(
      '--virtual-time',
      'with --paper: run the simulator on a virtual clock as fast as possible (--duration is then exchange time); the same config gives the same files',
    )
    .option('--start <iso>', 'with --virtual-time: exchange time to start at (default 2026-01-15T12:00:00Z)')
    .option(
      '--scenario <file>',
      "with --paper: the simulator's scenario (default: the config's paper.scenario, else " +
        'config/scenarios/recording.yaml, whose games finish within the first hour)',
    )
    .option(
      '--drop-sockets-every <d>',
      'with --paper: the simulator drops every socket at this period of exchange time (records gaps and reconnect snapshots)',
    )
    .option('--max-file-size <size>', 'start a new file after this much uncompressed data (default 64MB)')
    .option('--prefix <name>', 'file name prefix (default feed)')
    .option('--no-user', 'leave out the user feed')
    .option('--no-status', 'no status line')
    .action((o: RecordOptions) => record(o));
}
