import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameLine } from '../../src/record/format.ts';
import { RecordingReader, RecordingReadError, type RecordedEntry } from '../../src/record/reader.ts';
import { PRICE_FRAMES, userMessage } from './samples.ts';
import { deepJsonText, expectTyped, frameText, mutatedText, randomText, toText, within, fuzzRuns } from './support.ts';

const T = 1_768_478_400_000;

const meta = {
  t: T,
  k: 'meta',
  d: {
    format: 'linesmith.feed-recording',
    version: 1,
    session: 's',
    part: 1,
    sessionStart: T,
    linesmith: '0.1.0',
    venue: { kind: 'paper' },
    subscription: { all: true, leagues: [], sports: [], gameIds: [] },
    feeds: ['price', 'user'],
    rotation: { maxFileBytes: 1024, utcDay: true },
    clock: 'wall',
  },
};
const side = (id: string, score: number) => ({ id, name: id, score });

/** One valid record of every kind. */
const RECORDS: readonly unknown[] = [
  meta,
  { t: T + 1, k: 'price', c: 1, d: PRICE_FRAMES[0] },
  { t: T + 2, k: 'price', c: 1, raw: 'not json' },
  { t: T + 3, k: 'user', c: 1, d: userMessage },
  { t: T + 4, k: 'snapshot', d: { batch: 1, reason: 'start', req: T, scope: { league: 'NBA' }, game: { id: 'g' } } },
  {
    t: T + 5,
    k: 'snapshotDone',
    d: { batch: 1, reason: 'start', req: T, games: ['g'], failed: [{ scope: { gameID: 'h' }, error: 'HTTP 503' }] },
  },
  { t: T + 6, k: 'gap', d: { feed: 'price', from: T, to: T + 6, connection: 2, resumed: true, reason: null } },
  {
    t: T + 7,
    k: 'result',
    d: { gameID: 'g', league: 'NBA', sport: 'basketball', away: side('a', 90), home: side('h', 100), via: 'feed' },
  },
  { t: T + 8, k: 'end', d: { reason: 'duration reached', records: 9, files: 1 } },
];

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = join(tmpdir(), `ls-fuzz-rec-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function read(
  paths: string[],
  strict: boolean,
): Promise<{ entries: RecordedEntry[]; errors: RecordingReadError[]; thrown: unknown }> {
  const reader = new RecordingReader(paths, { strict });
  const entries: RecordedEntry[] = [];
  let thrown: unknown = null;
  try {
    await within(
      (async () => {
        for await (const e of reader) entries.push(e);
      })(),
      5_000,
      'reading the recording',
    );
  } catch (err) {
    thrown = err;
  }
  return { entries, errors: reader.errors, thrown };
}

/** Damage done to the compressed bytes. */
type Damage =
  | { kind: 'none' }
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'append'; bytes: number[] }
  | { kind: 'empty' };
const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Damage>({ kind: 'none' }) },
  { weight: 2, arbitrary: fc.nat().map((at): Damage => ({ kind: 'truncate', at })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) })
      .map((r): Damage => ({ kind: 'flip', ...r })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 30 })
      .map((bytes): Damage => ({ kind: 'append', bytes })),
  },
  { weight: 1, arbitrary: fc.constant<Damage>({ kind: 'empty' }) },
);

function damage(buf: Buffer, d: Damage): Buffer {
  switch (d.kind) {
    case 'none':
      return buf;
    case 'truncate':
      return buf.subarray(0, d.at % buf.length);
    case 'flip': {
      const out = Buffer.from(buf);
      const i = d.at % out.length;
      out[i] = out[i]! ^ d.xor;
      return out;
    }
    case 'append':
      return Buffer.concat([buf, Buffer.from(d.bytes)]);
    case 'empty':
      return Buffer.alloc(0);
  }
}

const lineArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RECORDS.slice(1)).map(toText) },
  { weight: 4, arbitrary: fc.constantFrom(...RECORDS).chain(mutatedText) },
  { weight: 1, arbitrary: randomText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '   ',
      `{"t":1,"k":${deepJsonText()}}`,
      `{"t":1,"k":"meta","d":{"format":${deepJsonText()}}}`,
      '{"t":1,"k":"price","c":1,"d":1,"raw":"x"}',
    ),
  },
);

describe('recorded feed lines: reader fuzz', () => {
  it('the valid records read back without a problem', async () => {
    const file = join(dir, `valid-${++n}.jsonl.gz`);
    await writeFile(file, gzipSync(RECORDS.map(toText).join('\n') + '\n'));
    const { entries, errors, thrown } = await read([file], true);
    expect(thrown).toBeNull();
    expect(errors).toEqual([]);
    expect(entries.map((e) => e.record.k)).toEqual(RECORDS.map((r) => (r as { k: string }).k));
  });

  it('corrupted, truncated and random lines in damaged files: a record or a RecordingReadError per line, never another throw or a hang', async () => {
    const fileArb = fc.record({
      lines: fc.array(lineArb, { maxLength: 12 }),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
      gz: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      damage: damageArb,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fileArb, { minLength: 1, maxLength: 3 }), async (files) => {
        const paths: string[] = [];
        const undamaged: boolean[] = [];
        const lineCounts: number[] = [];
        for (const f of files) {
          const text = [toText(meta), ...f.lines].join(f.crlf ? '\r\n' : '\n') + (f.finalNewline ? '\n' : '');
          const path = join(dir, `f-${++n}.jsonl${f.gz ? '.gz' : ''}`);
          await writeFile(path, f.gz ? damage(gzipSync(text), f.damage) : Buffer.from(text));
          paths.push(path);
          undamaged.push(!f.gz || f.damage.kind === 'none');
          // As the reader splits: at each \n, plus a last line without one.
          lineCounts.push(text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
        }
        const lenient = await read(paths, false);
        expect(lenient.thrown).toBeNull();
        for (const e of lenient.errors) expectTyped(e, RecordingReadError);
        for (const e of lenient.entries) expect(typeof e.record.t).toBe('number');
        // An intact single file: every line is a record or a reported problem, each once.
        if (files.length === 1 && undamaged[0] && !lenient.errors.some((e) => e.problem === 'version')) {
          expect(lenient.entries.length + lenient.errors.length).toBe(lineCounts[0]);
        }
        const strict = await read(paths, true);
        if (strict.thrown !== null) expectTyped(strict.thrown, RecordingReadError);
        else expect(strict.entries.length).toBe(lenient.entries.length);
      }),
      { numRuns: fuzzRuns(150), endOnFailure: true },
    );
  });

  // Regression: a line whose kind (or meta format) nests deeper than JSON.stringify can follow
  // threw a RangeError out of the reader, lenient or not.
  it('a line whose kind or format nests 20,000 deep is a RecordingReadError', async () => {
    const file = join(dir, `deep-${++n}.jsonl.gz`);
    await writeFile(
      file,
      gzipSync(
        [toText(meta), `{"t":1,"k":${deepJsonText()}}`, `{"t":2,"k":"meta","d":{"format":${deepJsonText()}}}`].join(
          '\n',
        ) + '\n',
      ),
    );
    const { entries, errors, thrown } = await read([file], false);
    expect(thrown).toBeNull();
    expect(entries).toHaveLength(1);
    expect(errors.map((e) => [e.line, e.problem])).toEqual([
      [2, 'record'],
      [3, 'version'],
    ]);
    expect(errors[0]!.detail).toMatch(/too deeply nested/);
  });
});

describe('frame lines: what the recorder writes, the reader reads back', () => {
  /** Frames, some spread over lines (JSON whitespace), as a socket might deliver them. */
  const spread = fc
    .tuple(frameText(PRICE_FRAMES), fc.boolean(), fc.constantFrom('\n', '\r\n', '\r'))
    .map(([text, multi, nl]) => (multi ? text.replaceAll(',"', `,${nl}"`) : text));

  it('any frame text becomes one line the reader accepts, keeping the frame (parsed) or its text (raw)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(spread, fc.constantFrom('price' as const, 'user' as const)), { minLength: 1, maxLength: 8 }),
        async (frames) => {
          const lines = frames.map(([text, feed], i) => ({ text, ...frameLine(T + i, feed, 1, text) }));
          for (const l of lines) {
            expect(l.line).not.toMatch(/[\n\r]/);
            const rec = JSON.parse(l.line) as { d?: unknown; raw?: string };
            if (l.json) expect('d' in rec).toBe(true);
            else expect(rec.raw).toBe(l.text);
          }
          const file = join(dir, `frames-${++n}.jsonl.gz`);
          await writeFile(file, gzipSync([toText(meta), ...lines.map((l) => l.line)].join('\n') + '\n'));
          const { entries, errors, thrown } = await read([file], true);
          expect(thrown).toBeNull();
          expect(errors).toEqual([]);
          expect(entries).toHaveLength(lines.length + 1);
        },
      ),
      { numRuns: fuzzRuns(100), endOnFailure: true },
    );
  });

  // Regression: JSON spread over lines is re-serialised; nested deeper than JSON.stringify can
  // follow, that threw out of the recorder's frame handler.
  it('a frame spread over lines and nested 20,000 deep is kept as raw text', () => {
    const text = `[\n${deepJsonText()}\n]`;
    const out = frameLine(T, 'price', 1, text);
    expect(out.json).toBe(false);
    expect((JSON.parse(out.line) as { raw: string }).raw).toBe(text);
  });
});
