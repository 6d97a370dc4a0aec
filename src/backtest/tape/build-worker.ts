import { parentPort } from 'node:worker_threads';
import { readRecording, type RecordingSummary } from '../tape.ts';
import {
  THREAD_AHEAD_CHUNKS,
  threadFailure,
  type BuildThreadData,
  type FromBuildThread,
  type ToBuildThread,
} from './build-protocol.ts';
import { finishTape, type MinimalReadSample } from './build.ts';
import { TapeWriter } from './file.ts';

/**
 * A build thread (`build-thread.ts`): for each build it is given, reads the recording,
 * writes its tape, and hands each chunk's bytes to the replay's thread as it is written,
 * with the recording account's orders found since the chunk before. It runs ahead of the
 * replay by a few chunks at most (the replay acknowledges each it takes); told to drain
 * (the replay stopped early), it writes the rest of the tape without handing it on. It then
 * waits for the next build: its modules stay loaded and its code warm.
 */
const port = parentPort;
if (port === null) throw new TypeError('build-worker.ts runs as a worker thread');

const say = (m: FromBuildThread, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

/** The build under way: its own read-ahead, drain flag and recording-account orders. */
class Build {
  draining = false;
  ahead = 0;
  resume: (() => void) | null = null;
  /** The footer's estimate of a minimal read, from the replay's thread. */
  readonly sampled: Promise<MinimalReadSample>;
  giveSample: (s: MinimalReadSample) => void = () => undefined;
  readonly #own = new Set<string>();

  constructor() {
    this.sampled = new Promise((r) => (this.giveSample = r));
  }
  #ownSent = 0;

  wake(): void {
    const r = this.resume;
    this.resume = null;
    r?.();
  }

  async run(data: BuildThreadData): Promise<void> {
    const started = performance.now();
    const writer = new TapeWriter(data.path, {
      ...(data.chunkItems !== undefined ? { chunkItems: data.chunkItems } : {}),
      onChunk: (bytes, count) => {
        if (this.draining) return;
        // A copy of its own: the writer reuses its buffer, and this one is handed over whole.
        const copy = bytes.slice();
        this.ahead++;
        say({ type: 'chunk', bytes: copy.buffer, count, own: this.#newOwn() }, [copy.buffer]);
      },
    });
    try {
      const summary: RecordingSummary = await readRecording(
        data.paths,
        { strict: data.strict, onProblem: (problem) => say({ type: 'problem', problem }) },
        (it) => writer.add(it),
        {
          own: this.#own,
          afterBatch: () =>
            this.draining || this.ahead < THREAD_AHEAD_CHUNKS
              ? undefined
              : new Promise<void>((r) => {
                  this.resume = r;
                }),
        },
      );
      await finishTape(writer, summary, data.key, data.files, data.path, started, this.sampled);
      say({ type: 'done' });
    } catch (err) {
      writer.abort();
      say({ type: 'failed', failure: threadFailure(err) });
    }
  }

  #newOwn(): string[] {
    if (this.#own.size === this.#ownSent) return [];
    const all = [...this.#own];
    const out = all.slice(this.#ownSent);
    this.#ownSent = all.length;
    return out;
  }
}

/** Acks and drains of a build already ended land on this one, which nothing reads. */
let build = new Build();
port.on('message', (m: ToBuildThread) => {
  switch (m.type) {
    case 'build':
      build = new Build();
      void build.run(m.data);
      return;
    case 'sample':
      build.giveSample(m.sample);
      return;
    case 'ack':
      build.ahead--;
      build.wake();
      return;
    case 'drain':
      build.draining = true;
      build.wake();
      return;
  }
});
say({ type: 'ready' });
