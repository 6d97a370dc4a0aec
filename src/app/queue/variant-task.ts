import type { SweepOverrides } from '../sweep.ts';

/** One variant for a queue worker's thread: which tape (a local file) and the variant's config. */
export interface VariantTask {
  readonly index: number;
  readonly tapePath: string;
  readonly kind: 'tape' | 'serialized';
  readonly configText: string;
  readonly configPath: string;
  readonly overrides: SweepOverrides;
}

/** The thread's answer: the result already encoded for Redis (see result-codec.ts), or why there is none. */
export interface VariantAnswer {
  readonly index: number;
  readonly encoded: Uint8Array | null;
  readonly events: number;
  readonly error: string | null;
  readonly replayMs: number;
}

/** What the thread says once its modules are loaded, before any task. */
export const THREAD_READY = 'ready';
