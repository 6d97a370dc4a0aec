import { pino, type Logger } from 'pino';

/**
 * Keys whose values never reach a log line: the token (under any of the names the
 * exchange and linesmith give it), the password and the Authorization header. pino's
 * redaction matches paths, so each name is listed at the top level and up to three levels
 * down (`{err: {options: {headers: {authorization}}}}`), arrays included.
 */
const SECRET_KEYS = [
  'password',
  'token',
  'auth',
  'authorization',
  'Authorization',
  'credentials',
  'x-auth-token',
  'cookie',
  'set-cookie',
];
const REDACT_DEPTH = 3;
export const REDACT_PATHS = [
  ...SECRET_KEYS.map((k) => (k.includes('-') ? `["${k}"]` : k)),
  ...Array.from({ length: REDACT_DEPTH }, (_, d) => '*' + '.*'.repeat(d)).flatMap((prefix) =>
    SECRET_KEYS.map((k) => (k.includes('-') ? `${prefix}["${k}"]` : `${prefix}.${k}`)),
  ),
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers["x-auth-token"]',
];
export const REDACTED = '[redacted]';

export interface LoggerOptions {
  readonly level?: string;
  /** Where lines go: a pino destination or any writable with `write(string)`. Default stderr. */
  readonly destination?: { write(line: string): unknown };
  readonly name?: string;
}

/** A pino logger with linesmith's secret redaction; no transports (no worker threads in the live process). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const dest = options.destination ?? pino.destination({ dest: 2, sync: true });
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      ...(options.name ? { name: options.name } : {}),
    },
    dest as pino.DestinationStream,
  );
}

export const silentLogger = (): Logger => pino({ level: 'silent' });

/** Loggers made by componentChild: the logger they were made from, and their dotted component name. */
const components = new WeakMap<Logger, { readonly base: Logger; readonly name: string }>();

/**
 * A child tagged `component: name`. Inside another component the name is dotted
 * (`runtime.orders`) and the child is made from the logger the parent was made from, so a
 * line carries one `component` key: pino writes every binding of a chain of children, and
 * `child({ component })` of a component logger would repeat the key. Asked for the component
 * it already is, a logger gives itself back. Without a level, the child keeps its parent's.
 */
export function componentChild(parent: Logger, name: string, options: { readonly level?: string } = {}): Logger {
  const known = components.get(parent);
  if (known && (known.name === name || known.name.endsWith(`.${name}`))) return parent;
  const base = known?.base ?? parent;
  const full = known ? `${known.name}.${name}` : name;
  const child = base.child({ component: full }, { level: options.level ?? parent.level });
  components.set(child, { base, name: full });
  return child;
}

/** The logger a component logger was made from (itself when it is none) and its component name (null when none). */
export function componentOf(logger: Logger): { readonly base: Logger; readonly name: string | null } {
  const known = components.get(logger);
  return known ? { base: known.base, name: known.name } : { base: logger, name: null };
}
