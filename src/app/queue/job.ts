import { z } from 'zod';
import { FILL_MODEL_KINDS } from '../../backtest/venue/queue-model.ts';

/** The BullMQ queue every distributed sweep uses; jobs of different sweeps differ by id. */
export const SWEEP_QUEUE_NAME = 'linesmith-sweep';

const tapeStoreRef = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('redis') }),
  z.strictObject({ kind: z.literal('path'), dir: z.string().min(1) }),
]);

/** One variant of a sweep, as a worker takes it off the queue. Checked at the worker's edge. */
export const variantJobData = z.strictObject({
  sweepId: z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/),
  index: z.number().int().nonnegative(),
  label: z.string(),
  tape: z.strictObject({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    kind: z.enum(['tape', 'serialized']),
    store: tapeStoreRef,
  }),
  configText: z.string(),
  configPath: z.string(),
  overrides: z.strictObject({
    seed: z.number().int().optional(),
    fillModel: z.enum(FILL_MODEL_KINDS as [string, ...string[]]).optional(),
  }),
});
export type VariantJobData = z.output<typeof variantJobData>;

/**
 * A worker's answer. The result itself is stored beside the job under `resultKey`, encoded
 * as result-codec.ts says (v8 serialisation, as a worker thread's answer travels by
 * structured clone): the coordinator gets the same values a local sweep gets, so the
 * reports it writes are byte for byte the same.
 */
export const variantJobResult = z.strictObject({
  resultKey: z.string().min(1),
  resultBytes: z.number().int().nonnegative(),
  replayMs: z.number().nonnegative(),
  events: z.number().int().nonnegative(),
  worker: z.string(),
});
export type VariantJobResult = z.output<typeof variantJobResult>;

/** `<sweep>-<n>`: BullMQ ignores an add whose id exists, which is what lets a restarted coordinator resume. */
export function variantJobId(sweepId: string, index: number): string {
  return `${sweepId}-${String(index + 1).padStart(4, '0')}`;
}
