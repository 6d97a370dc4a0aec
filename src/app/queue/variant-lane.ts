import { Worker } from 'node:worker_threads';
import { compiledWorker } from '../../loader/compiled-entry.mjs';
import { variantThreadLimits } from '../replay-heap.ts';
import { THREAD_READY, type VariantAnswer, type VariantTask } from './variant-task.ts';

/** The thread run from source: the TypeScript loader (a strategy file needs it), then the thread. */
export const VARIANT_THREAD_SOURCE = new URL('./variant-thread.mjs', import.meta.url);

/**
 * The thread compiled ahead (src/loader/compiled-entry.mjs), for variants whose strategies
 * are all built in: a thread that loads through tsx starts a loader thread of its own too
 * (an idle worker with one thread: 186 MB resident from source, 157 MB compiled). The source
 * thread when it cannot be compiled.
 */
export const compiledVariantThread = (): Promise<string | URL> =>
  compiledWorker(new URL('./variant-thread.ts', import.meta.url), VARIANT_THREAD_SOURCE);

/**
 * One thread of a queue worker, running the variants it is given one at a time. It is
 * started before the worker takes jobs, so loading its modules is part of starting the
 * worker, not of the first variant.
 */
export class VariantLane {
  readonly #thread: Worker;
  readonly #ready: Promise<void>;
  #pending: { index: number; resolve: (a: Omit<VariantAnswer, 'index'>) => void } | null = null;
  #dead: string | null = null;
  busy = false;

  /** What the thread runs: the compiled thread, or the source one a strategy file needs. */
  readonly script: string | URL;

  constructor(script: string | URL = VARIANT_THREAD_SOURCE) {
    this.script = script;
    this.#thread = new Worker(script, {
      resourceLimits: variantThreadLimits(),
    });
    let ready: () => void = () => {};
    this.#ready = new Promise((resolve) => (ready = resolve));
    this.#thread.on('message', (m: VariantAnswer | typeof THREAD_READY) => {
      if (m === THREAD_READY) return ready();
      const p = this.#pending;
      if (!p || m.index !== p.index) return;
      this.#pending = null;
      p.resolve({ encoded: m.encoded, events: m.events, error: m.error, replayMs: m.replayMs });
    });
    this.#thread.on('error', (err) => this.#die(err.message));
    this.#thread.on('exit', (code) => this.#die(`worker thread exited with code ${code}`));
    // A thread that dies while loading ends the wait too; `dead` then says why.
    this.#thread.once('exit', () => ready());
  }

  /** Resolves once the thread has loaded its modules (or died trying: see `dead`). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Why the thread is gone (it crashed or exited), or null while it runs. */
  get dead(): string | null {
    return this.#dead;
  }

  run(task: VariantTask): Promise<Omit<VariantAnswer, 'index'>> {
    if (this.#dead !== null) return Promise.resolve({ encoded: null, events: 0, error: this.#dead, replayMs: 0 });
    return new Promise((resolve) => {
      this.#pending = { index: task.index, resolve };
      this.#thread.postMessage(task);
    });
  }

  async close(): Promise<void> {
    if (this.#dead === null) await this.#thread.terminate();
  }

  #die(reason: string): void {
    if (this.#dead !== null) return;
    this.#dead = reason;
    const p = this.#pending;
    this.#pending = null;
    p?.resolve({ encoded: null, events: 0, error: reason, replayMs: 0 });
  }
}
