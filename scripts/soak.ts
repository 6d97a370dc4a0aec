/**
 * `npm run soak -- --minutes N [--speed X] [--seed N] [--cancel-unknown] [--log FILE]`: the chaos soak (src/soak).
 * Prints what happened and each invariant with PASS/FAIL; exits 1 if any broke, 2 on bad
 * arguments or a soak that could not run.
 */
import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import { createLogger, silentLogger } from '../src/shared/logger.ts';
import { formatReport } from '../src/soak/report.ts';
import { runSoak } from '../src/soak/run.ts';

const positive = (name: string) => (v: string) => {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a positive number`);
  return n;
};

const program = new Command()
  .name('soak')
  .description(
    "chaos soak: the runtime against the simulator with every fault on; invariants checked against the simulator's ledger",
  )
  .option('--minutes <n>', 'wall minutes to run', positive('minutes'), 2)
  .option('--speed <x>', 'exchange time per wall time', positive('speed'), 60)
  .option('--seed <n>', 'seed of the synthetic market', positive('seed'), 7)
  .option('--cancel-unknown', 'the restarted bot cancels the orders it finds instead of adopting them')
  .option('--log <file>', 'JSON log of the simulator and the bots (default: none)')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
program.parse();
const opts = program.opts<{ minutes: number; speed: number; seed: number; cancelUnknown?: boolean; log?: string }>();

const logger = opts.log
  ? createLogger({ level: 'debug', destination: pino.destination({ dest: opts.log, sync: false, mkdir: true }) })
  : silentLogger();
const started = performance.now();
try {
  const report = await runSoak({
    wallMs: opts.minutes * 60_000,
    speed: opts.speed,
    seed: Math.floor(opts.seed),
    cancelUnknownOrdersAtStart: opts.cancelUnknown === true,
    logger,
    onProgress: (line) =>
      process.stderr.write(`[soak ${((performance.now() - started) / 1000).toFixed(1)}s] ${line}\n`),
  });
  process.stdout.write(`${formatReport(report)}\n`);
  process.exitCode = report.passed ? 0 : 1;
} catch (err) {
  process.stderr.write(`soak could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 2;
}
