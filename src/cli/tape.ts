import type { Command } from 'commander';
import { BacktestInputError, formatInputProblem, type InputProblem } from '../backtest/errors.ts';
import { openTape, type BuildReason, type CachedTape } from '../backtest/tape/cache.ts';

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

/** Why a tape was built, for a person. */
export const BUILD_WHY: Readonly<Record<BuildReason, string>> = {
  new: 'first replay of this recording',
  rebuild: 'asked to rebuild',
  version: 'the old one was of another format version',
  corrupt: 'the old one failed its checksum',
};

/** `tape built (new) in 3.10 s, 26,745 events at 8,627/s, 10.0 MB: <path>` or `tape reused (checked in 0.05 s): <path>` */
export function tapeLine(c: CachedTape): string {
  const f = c.tape.footer;
  if (c.built === null) return `tape reused (checked in ${sec(c.ms)}, ${mb(c.tape.size)}): ${c.path}`;
  const why = BUILD_WHY[c.built];
  return `tape built (${why}) in ${sec(c.ms)}, ${int(f.count)} events at ${int((f.count / c.ms) * 1000)}/s, ${mb(c.tape.size)}: ${c.path}`;
}

/**
 * The closing line of a backtest: replay events/s, and the whole backtest (getting the
 * events + the replay) against a minimal read of the same recording (gunzip + split +
 * JSON.parse, estimated when its tape was built from a sample of it on this machine).
 */
export function throughputLine(s: {
  events: number;
  loadMs: number;
  replayMs: number;
  minimalReadMs: number | null;
  /** The recording was read, its tape written and the replay run in one pass (the replay's time holds all three). */
  onePass?: boolean;
}): string {
  const rate = (s.events / s.replayMs) * 1000;
  const pass = s.onePass ? ' (read and written to its tape in the same pass)' : '';
  const head = `  throughput     ${int(s.events)} events replayed in ${sec(s.replayMs)}${pass}: ${int(rate)} events/s; getting them ${sec(s.loadMs)}`;
  if (s.minimalReadMs === null || !(s.minimalReadMs > 0)) return `${head} (no tape: no minimal-read figure)`;
  return (
    `${head}; a minimal read of the recording (gunzip + JSON.parse, estimated) ${sec(s.minimalReadMs)}, ` +
    `so the backtest took ${((s.loadMs + s.replayMs) / s.minimalReadMs).toFixed(2)}x the minimal read`
  );
}

interface TapeBuildOptions {
  readonly feed: string[];
  readonly tapeDir?: string;
  readonly rebuild?: boolean;
  readonly strict?: boolean;
}

async function build(o: TapeBuildOptions): Promise<void> {
  try {
    const reading =
      o.strict === true
        ? { strict: true }
        : { onProblem: (p: InputProblem) => process.stderr.write(`  skipped ${formatInputProblem(p)}\n`) };
    const c = await openTape(o.feed, {
      ...reading,
      ...(o.tapeDir !== undefined ? { dir: o.tapeDir } : {}),
      rebuild: o.rebuild === true,
    });
    const f = c.tape.footer;
    process.stdout.write(`${tapeLine(c)}\n`);
    process.stdout.write(
      `  ${int(f.count)} events in ${f.chunks.length} chunk(s) from ${f.files.length} file(s), ${f.problems.length} line(s) skipped; ` +
        `minimal read of the recording (estimated) ${sec(f.build.minimalReadMs)}, the build took ${(f.build.ms / f.build.minimalReadMs).toFixed(2)}x that\n`,
    );
  } catch (err) {
    if (!(err instanceof BacktestInputError)) throw err;
    process.stderr.write(`linesmith tape build: ${err.message}\n`);
    process.exitCode = 1;
  }
}

export function registerTape(program: Command): void {
  const tape = program
    .command('tape')
    .description('binary tapes of recordings: the pre-parsed events every backtest and sweep variant replays');
  tape
    .command('build')
    .description(
      'read a recording once and write its tape (reused if a good one is there; built again if the recording, the format version or a checksum says so)',
    )
    .requiredOption('--feed <path...>', 'recording files or directories (linesmith record output)')
    .option('--tape-dir <dir>', 'where tapes are kept (default: .linesmith-tape beside the recording)')
    .option('--rebuild', 'build it again even if a good tape is there')
    .option('--strict', 'stop at the first bad recording line instead of skipping it')
    .action((o: TapeBuildOptions) => build(o));
}
