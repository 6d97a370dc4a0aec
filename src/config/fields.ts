import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { DurationError, parseDuration } from '../shared/duration.ts';

/** Field schemas shared by several sections. */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const logLevel = z.enum(LOG_LEVELS, { error: `expected a log level: ${LOG_LEVELS.join(', ')}` });

/** Where relative paths in the file are anchored: the file's own directory, not the process's cwd. */
export interface SchemaContext {
  readonly baseDir: string;
}

/** A filesystem path, made absolute against the config file's directory; `~/` is the home directory. */
export function pathField(ctx: SchemaContext) {
  return z
    .string({ error: 'expected a path' })
    .trim()
    .min(1, 'expected a path')
    .transform((p) => resolvePath(p, ctx.baseDir));
}

export function resolvePath(p: string, baseDir: string): string {
  if (p === '~' || p.startsWith('~/')) return join(homedir(), p.slice(1));
  return isAbsolute(p) ? p : resolve(baseDir, p);
}

/** An amount of money in the account's currency: positive and finite. */
export const money = z
  .number({ error: 'expected an amount of money' })
  .positive('must be positive')
  .max(1e12, 'must be at most 1e12');

/**
 * A duration given either as a plain number in the field's own unit (the key says which:
 * `throttleMs`, `heartbeatSeconds`) or as a string such as `15s` or `1m30s`.
 */
export function durationField(
  unit: 'ms' | 's',
  bounds: { readonly min: number; readonly max: number; readonly integer?: boolean },
) {
  const unitName = unit === 'ms' ? 'milliseconds' : 'seconds';
  const inUnit = z
    .number()
    .min(bounds.min, `must be at least ${bounds.min} ${unitName}`)
    .max(bounds.max, `must be at most ${bounds.max} ${unitName}`)
    .refine((n) => !bounds.integer || Number.isInteger(n), `must be a whole number of ${unitName}`);
  return z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string') {
        try {
          const ms = parseDuration(v);
          return unit === 'ms' ? ms : ms / 1000;
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: e instanceof DurationError ? e.message : String(e) });
          return z.NEVER;
        }
      }
      ctx.addIssue({
        code: 'custom',
        message: `expected a number of ${unitName} or a duration such as 15s, 2m or 1h30m`,
      });
      return z.NEVER;
    })
    .pipe(inUnit);
}
