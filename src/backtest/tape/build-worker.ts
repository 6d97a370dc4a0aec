import { parentPort, workerData } from 'node:worker_threads';
import { readRecording, type RecordingSummary } from '../tape.ts';
import {
  THREAD_AHEAD_CHUNKS,
  threadFailure,
  type BuildThreadData,
  type FromBuildThread,
  type ToBuildThread,
} from './build-protocol.ts';
import { finishTape } from './build.ts';
import { TapeWriter } from './file.ts';

/**
 * The build thread of a first replay (`TapeBuild`, thread `worker`): reads the recording,
 * writes its tape, and hands each chunk's bytes to the replay's thread as it is written,
 * with the recording account's orders found since the chunk before. It runs ahead of the
 * replay by a few chunks at most (the replay acknowledges each it takes); told to drain
 * (the replay stopped early), it writes the rest of the tape without handing it on.
 */
const port = parentPort;
if (port === null) throw new TypeError('build-worker.ts runs as a worker thread');
const data = workerData as BuildThreadData;

const say = (m: FromBuildThread, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);
let draining = false;
let ahead = 0;
let resume: (() => void) | null = null;
port.on('message', (m: ToBuildThread) => {
  if (m.type === 'ack') ahead--;
  else draining = true;
  const r = resume;
  resume = null;
  r?.();
});

const own = new Set<string>();
let ownSent = 0;
const newOwn = (): string[] => {
  if (own.size === ownSent) return [];
  const all = [...own];
  const out = all.slice(ownSent);
  ownSent = all.length;
  return out;
};

const started = performance.now();
const writer = new TapeWriter(data.path, {
  ...(data.chunkItems !== undefined ? { chunkItems: data.chunkItems } : {}),
  onChunk: (bytes, count) => {
    if (draining) return;
    // A copy of its own: the writer reuses its buffer, and this one is handed over whole.
    const copy = bytes.slice();
    ahead++;
    say({ type: 'chunk', bytes: copy.buffer, count, own: newOwn() }, [copy.buffer]);
  },
});
try {
  const summary: RecordingSummary = await readRecording(
    data.paths,
    { strict: data.strict, onProblem: (problem) => say({ type: 'problem', problem }) },
    (it) => writer.add(it),
    {
      own,
      afterBatch: () =>
        draining || ahead < THREAD_AHEAD_CHUNKS
          ? undefined
          : new Promise<void>((r) => {
              resume = r;
            }),
    },
  );
  await finishTape(writer, summary, data.key, data.files, data.path, started);
  say({ type: 'done' });
} catch (err) {
  writer.abort();
  say({ type: 'failed', failure: threadFailure(err) });
} finally {
  // Nothing more to hear: the thread ends once its last messages are out.
  port.unref();
}
