import { Worker } from 'node:worker_threads';
import { compiledWorker } from '../../loader/compiled-entry.mjs';
import type { InputProblem } from '../errors.ts';
import type { MinimalReadSample } from './build.ts';
import {
  TapeBuildThreadError,
  threadError,
  type BuildThreadData,
  type FromBuildThread,
  type ToBuildThread,
} from './build-protocol.ts';

/** What the replay's thread hears of the build it gave a build thread. */
export interface BuildThreadListener {
  chunk(bytes: ArrayBuffer, count: number, own: readonly string[]): void;
  problem(problem: InputProblem): void;
  /** The build ended: the tape is in place (`failure` null), or it failed (no tape of it is left). */
  end(failure: { readonly err: unknown } | null): void;
}

/**
 * A thread that reads recordings and writes their tapes (`build-worker.ts`), one build at a
 * time. Starting one costs far more than a small recording's read (its modules, a cold
 * JIT): a process keeps one between builds (`takeBuildThread`,
 * `giveBackBuildThread`), idle and not holding the process open.
 */
export class BuildThread {
  readonly #worker: Worker;
  #ready = false;
  #dead = false;
  #listener: BuildThreadListener | null = null;
  #loaded: () => void = () => undefined;
  /** Resolves once its modules are loaded, or it stopped (`dead`). */
  readonly loaded = new Promise<void>((r) => (this.#loaded = r));

  constructor(script: string | URL = BUILD_WORKER_SOURCE) {
    this.#worker = new Worker(script);
    this.#worker.on('message', (m: FromBuildThread) => this.#hear(m));
    this.#worker.on('error', (err) => this.#die(err));
    this.#worker.on('exit', () => this.#die(new TapeBuildThreadError('the tape build thread stopped')));
  }

  /** Whether its modules are loaded: a build given to it starts at once. */
  get ready(): boolean {
    return this.#ready;
  }

  get dead(): boolean {
    return this.#dead;
  }

  get threadId(): number {
    return this.#worker.threadId;
  }

  /** Runs a build; the thread holds the process open until the build ends. */
  build(data: BuildThreadData, listener: BuildThreadListener): void {
    if (this.#dead) {
      listener.end({ err: new TapeBuildThreadError('the tape build thread stopped before the build') });
      return;
    }
    this.#listener = listener;
    this.#worker.ref();
    this.#tell({ type: 'build', data });
  }

  /** A chunk of the build under way taken by the replay. */
  ack(): void {
    this.#tell({ type: 'ack' });
  }

  /** The estimate of a minimal read of the build's recording, for its footer (the build waits for it before the footer). */
  sample(sample: MinimalReadSample): void {
    this.#tell({ type: 'sample', sample });
  }

  /** The replay stopped early: the build writes the rest of its tape without handing it on. */
  drain(): void {
    this.#tell({ type: 'drain' });
  }

  /** Waiting for a build: the process may end meanwhile. */
  idle(): void {
    this.#worker.unref();
  }

  stop(): void {
    this.#dead = true;
    this.#loaded();
    void this.#worker.terminate();
  }

  #tell(m: ToBuildThread): void {
    if (!this.#dead) this.#worker.postMessage(m);
  }

  #hear(m: FromBuildThread): void {
    switch (m.type) {
      case 'ready':
        this.#ready = true;
        this.#loaded();
        return;
      case 'chunk':
        this.#listener?.chunk(m.bytes, m.count, m.own);
        return;
      case 'problem':
        this.#listener?.problem(m.problem);
        return;
      case 'done':
        this.#end(null);
        return;
      case 'failed':
        this.#end({ err: threadError(m.failure) });
        return;
    }
  }

  #end(failure: { readonly err: unknown } | null): void {
    const l = this.#listener;
    this.#listener = null;
    l?.end(failure);
  }

  #die(err: unknown): void {
    if (this.#dead && this.#listener === null) return;
    this.#dead = true;
    this.#loaded();
    if (kept === this) kept = null;
    this.#end({ err });
  }
}

/** The build thread run from source: the TypeScript loader, then the worker. */
const BUILD_WORKER_SOURCE = new URL('./build-worker.mjs', import.meta.url);

/** The build thread's script: compiled ahead (it loads no strategy), else from source. */
const buildWorkerScript = (): Promise<string | URL> =>
  compiledWorker(new URL('./build-worker.ts', import.meta.url), BUILD_WORKER_SOURCE);

/** The build thread this process keeps between builds (none until a build asks for one). */
let kept: BuildThread | null = null;

/** A build thread for a build: the one kept if there is one, else a new one. It is the caller's until `giveBackBuildThread`. */
export async function takeBuildThread(): Promise<BuildThread> {
  const k = kept;
  if (k !== null && !k.dead) {
    kept = null;
    return k;
  }
  return new BuildThread(await buildWorkerScript());
}

/** A thread whose build has ended: kept for the next build, or stopped if one is kept already. */
export function giveBackBuildThread(t: BuildThread): void {
  if (t.dead) return;
  if (kept === null || kept.dead) {
    kept = t;
    t.idle();
  } else t.stop();
}

/**
 * Starts a thread to keep for the builds to come, unless one is kept already; resolves once
 * its modules are loaded (true) or it could not start (false). A process that is about to
 * replay recordings whose tapes are not built can call it early, so the first build finds
 * the thread ready.
 */
export async function warmBuildThread(): Promise<boolean> {
  if (kept === null || kept.dead) {
    const thread = new BuildThread(await buildWorkerScript());
    // Another warm-up may have kept one while the script was looked up.
    if (kept === null || kept.dead) {
      kept = thread;
      kept.idle();
    } else thread.stop();
  }
  const k = kept;
  await k.loaded;
  return k.ready && !k.dead;
}

/** Stops the kept build thread, if any (a build under way keeps its own until it ends). */
export function stopBuildThread(): void {
  kept?.stop();
  kept = null;
}
