import { pino, type Logger, type StreamEntry } from 'pino';
import pretty from 'pino-pretty';
import { componentChild, componentOf, REDACT_PATHS, REDACTED } from '../shared/logger.ts';
import type { LoggingConfig, LogLevel } from './types.ts';

export interface RunLoggerOptions {
  /** Replaces process.stderr (tests); `isTTY` decides `pretty: auto` and colours. */
  readonly stderr?: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Component levels of each root made by createRunLogger, for componentLogger to apply. */
const componentLevels = new WeakMap<Logger, Readonly<Record<string, LogLevel>>>();

/**
 * The run's root logger: JSON lines appended to `config.file` and, when pretty (or `auto`
 * on a terminal), human lines on stderr. Without a file and without pretty, JSON goes to
 * stderr so a run is never silent; with a file and no terminal, stderr stays quiet (the
 * file has everything, and a service manager capturing stderr would only get a copy).
 *
 * Everything is synchronous in this thread: no transports, no worker threads, and the
 * last lines before a crash are on disk.
 */
export function createRunLogger(config: LoggingConfig, options: RunLoggerOptions = {}): Logger {
  const stderr = options.stderr ?? process.stderr;
  const tty = stderr.isTTY === true;
  const usePretty = config.pretty === 'auto' ? tty : config.pretty;
  // Streams take everything: the loggers filter, since a component may be more verbose than the root.
  const streams: StreamEntry[] = [];
  if (config.file)
    streams.push({
      level: 'trace',
      stream: pino.destination({ dest: config.file, sync: true, mkdir: true, append: true }),
    });
  if (usePretty) {
    const destination = options.stderr ?? 2;
    streams.push({
      level: 'trace',
      stream: pretty({
        destination,
        sync: true,
        colorize: tty,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    });
  } else if (!config.file) {
    streams.push({ level: 'trace', stream: options.stderr ?? pino.destination({ dest: 2, sync: true }) });
  }
  const root = pino(
    { level: config.level, redact: { paths: REDACT_PATHS, censor: REDACTED } },
    pino.multistream(streams),
  );
  componentLevels.set(root, config.components);
  return root;
}

/**
 * A child for one component, tagged `component: name`, at the level configured for it:
 * `engine.orders` takes its own level, else `engine`'s, else the root's. Given a component
 * logger, it makes a sub-component (`runtime` and `orders` give `runtime.orders`) with one
 * `component` key per line (see componentChild). A root not made by createRunLogger (a
 * test's logger) gives a tagged child at its parent's level.
 */
export function componentLogger(parent: Logger, name: string): Logger {
  const { base, name: outer } = componentOf(parent);
  const level = levelFor(componentLevels.get(base) ?? {}, outer === null ? name : `${outer}.${name}`);
  return componentChild(parent, name, level ? { level } : {});
}

function levelFor(levels: Readonly<Record<string, LogLevel>>, name: string): LogLevel | undefined {
  for (let n = name; n !== ''; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : '') {
    if (Object.hasOwn(levels, n)) return levels[n];
  }
  return undefined;
}
