import { pino, type Logger } from 'pino';

/**
 * Keys whose values never reach a log line: the token (under any of the names the
 * exchange and linesmith give it), the password and the Authorization header. pino's
 * redaction matches paths, so each name is listed at the top level and up to three levels
 * down (`{err: {options: {headers: {authorization}}}}`), arrays included.
 */
const SECRET_KEYS = ['password', 'token', 'auth', 'authorization', 'Authorization', 'credentials', 'x-auth-token', 'cookie', 'set-cookie'];
const REDACT_DEPTH = 3;
export const REDACT_PATHS = [
  ...SECRET_KEYS.map((k) => (k.includes('-') ? `["${k}"]` : k)),
  ...Array.from({ length: REDACT_DEPTH }, (_, d) => '*' + '.*'.repeat(d)).flatMap((prefix) => SECRET_KEYS.map((k) => (k.includes('-') ? `${prefix}["${k}"]` : `${prefix}.${k}`))),
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
