import { z } from 'zod';
import { logLevel, pathField, type LogLevel, type SchemaContext } from '../fields.ts';

export interface LoggingConfig {
  readonly level: LogLevel;
  /** JSON lines go here (appended) when set. */
  readonly file?: string;
  /** Human-readable lines on stderr; `auto`: when stderr is a terminal. */
  readonly pretty: boolean | 'auto';
  /** Levels of named components (`exchange`, `engine.orders`), overriding `level`. */
  readonly components: Readonly<Record<string, LogLevel>>;
}

export const COMPONENT_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)*$/;

export function loggingSection(ctx: SchemaContext) {
  return z
    .strictObject({
      level: logLevel.default('info'),
      file: pathField(ctx).optional(),
      pretty: z.union([z.boolean(), z.literal('auto')], { error: 'expected true, false or auto' }).default('auto'),
      components: z
        .record(
          z.string().regex(COMPONENT_NAME, 'a component name: letters, digits, "-", "_", dotted for sub-components'),
          logLevel,
        )
        .default({}),
    })
    .prefault({}) satisfies z.ZodType<LoggingConfig, unknown>;
}
