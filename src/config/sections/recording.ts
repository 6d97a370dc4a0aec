import { z } from 'zod';
import { pathField, type SchemaContext } from '../fields.ts';

/** Capture of the run's inputs (feeds, order answers) for replay in the backtester. */
export interface RecordingConfig {
  readonly enabled: boolean;
  /** Required when enabled; no default, so recordings never land somewhere unexpected. */
  readonly dir?: string;
}

export function recordingSection(ctx: SchemaContext) {
  return z
    .strictObject({
      enabled: z.boolean().default(false),
      dir: pathField(ctx).optional(),
    })
    .prefault({})
    .superRefine((r, c) => {
      if (r.enabled && r.dir === undefined)
        c.addIssue({
          code: 'custom',
          path: ['dir'],
          message: 'recording is enabled: name the directory to record into',
        });
    }) satisfies z.ZodType<RecordingConfig, unknown>;
}
