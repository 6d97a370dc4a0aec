import type { Command } from 'commander';
import pino, { type Logger } from 'pino';
import { manualTime, realTime, type TimeSource } from '../shared/time.ts';
import { EXIT, usageError } from './exit-codes.ts';
import { loadScenarioFile, ScenarioError, type Scenario } from '../sim/market/scenario.ts';
import { startSimulator, type Simulator } from '../sim/server.ts';
import {
  COUNT_LIMITS,
  DEFAULT_LIMITS,
  parseCount,
  parseRate,
  RATE_LIMITS,
  type RateSetting,
  type SimLimitSettings,
} from '../sim/limit-settings.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** Raw option values as commander hands them over. */
interface SimCliOptions {
  readonly port: string;
  readonly host: string;
  readonly seed: string;
  readonly scenario?: string;
  readonly traders: boolean;
  readonly admin?: boolean;
  readonly manualClock?: boolean;
  readonly speed?: string;
  readonly logLevel: string;
  readonly ipRate?: string;
  readonly loginRate?: string;
  readonly gradedRate?: string;
  readonly gradedSinceRate?: string;
  readonly maxConnectionsPerIp?: string;
  readonly maxConnectionsPerAccount?: string;
  readonly maxSubscriptionsPerConnection?: string;
}

export interface SimSettings {
  readonly port: number;
  readonly host: string;
  readonly seed: number;
  readonly scenarioFile: string | null;
  readonly traders: boolean;
  readonly admin: boolean;
  readonly manualClock: boolean;
  readonly speed: number;
  readonly logLevel: LogLevel;
  /** The limits given on the command line; the scenario's, then the defaults, fill the rest. */
  readonly limits: Partial<SimLimitSettings>;
}

/** The limit flags, by setting name: `--ip-rate` sets ipRate, and so on. */
const flagOf = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const rateText = (r: RateSetting): string =>
  `${r.limit}/${r.windowMs % 1000 === 0 ? `${r.windowMs / 1000}s` : `${r.windowMs}ms`}`;

/** Check and convert the options; returns an error message for the first bad one. */
export function validateSimOptions(o: SimCliOptions): SimSettings | string {
  if (!/^\d+$/.test(o.port) || Number(o.port) > 65535)
    return `--port must be a whole number from 0 to 65535 (0 picks a free port), got "${o.port}"`;
  if (o.host.trim().length === 0) return '--host must not be empty';
  if (!/^-?\d+$/.test(o.seed) || !Number.isSafeInteger(Number(o.seed)))
    return `--seed must be a whole number, got "${o.seed}"`;
  let speed = 1;
  if (o.speed !== undefined) {
    speed = Number(o.speed);
    if (o.speed.trim() === '' || !Number.isFinite(speed) || speed <= 0)
      return `--speed must be a positive number (60 runs an hour of exchange time per minute), got "${o.speed}"`;
    if (o.manualClock)
      return '--speed has no effect with --manual-clock (time moves only through the admin clock); drop one of them';
  }
  if (!(LOG_LEVELS as readonly string[]).includes(o.logLevel))
    return `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${o.logLevel}"`;
  if (o.scenario !== undefined && !o.traders)
    return '--scenario configures the synthetic traders; it cannot be combined with --no-traders';
  const limits: Partial<Record<keyof SimLimitSettings, unknown>> = {};
  for (const name of [...RATE_LIMITS, ...COUNT_LIMITS]) {
    const text = o[name];
    if (text === undefined) continue;
    const value = (RATE_LIMITS as readonly string[]).includes(name) ? parseRate(text) : parseCount(text);
    if (typeof value === 'string') return `${flagOf(name)}: ${value}`;
    limits[name] = value;
  }
  return {
    port: Number(o.port),
    host: o.host.trim(),
    seed: Number(o.seed),
    scenarioFile: o.scenario ?? null,
    traders: o.traders,
    admin: o.admin === true,
    manualClock: o.manualClock === true,
    speed,
    logLevel: o.logLevel as LogLevel,
    limits: limits as Partial<SimLimitSettings>,
  };
}

/** pino to stderr; pretty-printed (as a stream in this process, never a transport) only on a terminal. */
async function createLogger(level: LogLevel): Promise<Logger> {
  if (process.stderr.isTTY) {
    const { default: pretty } = await import('pino-pretty');
    return pino({ level }, pretty({ destination: 2, colorize: true, sync: true }));
  }
  return pino({ level }, pino.destination({ dest: 2, sync: true }));
}

export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('Run the exchange simulator (REST and sockets) with a seeded synthetic market')
    .option('--port <n>', 'port to listen on (0 picks a free port)', '8080')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--seed <n>', 'random seed: the same seed and scenario give the same market', '1')
    .option('--scenario <file>', 'scenario YAML (leagues, games, population, pace); built-in default when omitted')
    .option('--no-traders', 'no synthetic market: an empty exchange')
    .option('--admin', 'mount the admin API (loopback only)')
    .option('--manual-clock', 'time moves only through the admin clock')
    .option('--speed <x>', 'run exchange time x times faster than wall time (default 1)')
    .option('--log-level <level>', `log level (${LOG_LEVELS.join(', ')})`, 'info')
    .option(
      '--ip-rate <n/window>',
      `requests and WebSocket handshakes per client IP (default ${rateText(DEFAULT_LIMITS.ipRate)})`,
    )
    .option('--login-rate <n/window>', `logins per client IP (default ${rateText(DEFAULT_LIMITS.loginRate)})`)
    .option(
      '--graded-rate <n/window>',
      `getGraded and getGradedWagers per user (default ${rateText(DEFAULT_LIMITS.gradedRate)})`,
    )
    .option(
      '--graded-since-rate <n/window>',
      `getGradedSince per user (default ${rateText(DEFAULT_LIMITS.gradedSinceRate)})`,
    )
    .option(
      '--max-connections-per-ip <n>',
      `open WebSocket connections per client IP (default ${DEFAULT_LIMITS.maxConnectionsPerIp})`,
    )
    .option(
      '--max-connections-per-account <n>',
      `open WebSocket connections per account (default ${DEFAULT_LIMITS.maxConnectionsPerAccount})`,
    )
    .option(
      '--max-subscriptions-per-connection <n>',
      `ids one price-feed connection may subscribe to (default ${DEFAULT_LIMITS.maxSubscriptionsPerConnection})`,
    )
    .addHelpText(
      'after',
      "\nLimits (the --*-rate and --max-* options) may also be set by a scenario file's `limits` section, " +
        'under the\nsame names in camelCase (ipRate: 3000/60s); an option given here wins over the scenario.',
    )
    .action(async (raw: SimCliOptions) => {
      const settings = validateSimOptions(raw);
      if (typeof settings === 'string') usageError('sim', settings);
      else await runSim(settings);
    });
}

async function runSim(settings: SimSettings): Promise<void> {
  let scenario: Scenario | undefined;
  if (settings.scenarioFile !== null) {
    try {
      scenario = await loadScenarioFile(settings.scenarioFile);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      process.stderr.write(`linesmith sim: invalid scenario\n${e.message}\n`);
      process.exit(EXIT.usage);
    }
  }
  const log = await createLogger(settings.logLevel);
  const time: TimeSource = settings.manualClock ? manualTime() : realTime({ speed: settings.speed });

  let sim: Simulator;
  try {
    sim = await startSimulator({
      port: settings.port,
      host: settings.host,
      seed: settings.seed,
      time,
      admin: settings.admin,
      traders: settings.traders,
      ...(scenario !== undefined ? { scenario } : {}),
      logger: log,
      settings: settings.limits,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message =
      code === 'EADDRINUSE'
        ? `port ${settings.port} on ${settings.host} is already in use`
        : e instanceof Error
          ? e.message
          : String(e);
    process.stderr.write(`linesmith sim: cannot start the simulator: ${message}\n`);
    process.exit(EXIT.failure);
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      // A second signal while closing: stop waiting.
      process.exit(EXIT.interrupted);
    }
    closing = true;
    log.info({ signal }, 'shutting down');
    sim.close().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (e: unknown) => {
        log.error({ err: e }, 'error while closing the simulator');
        process.exit(EXIT.failure);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  const clockText = settings.manualClock
    ? 'manual clock'
    : settings.speed === 1
      ? 'real time'
      : `speed ${settings.speed}x`;
  const trading = settings.traders ? `traders on${scenario ? `, scenario ${scenario.name}` : ''}` : 'traders off';
  process.stdout.write(`linesmith sim listening on ${sim.url} (seed ${settings.seed}, ${trading}, ${clockText})\n`);
}
