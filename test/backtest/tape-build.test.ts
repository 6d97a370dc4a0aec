import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { runBacktest, runBacktestBuilding } from '../../src/app/backtest-run.ts';
import { reportJson } from '../../src/backtest/report/write.ts';
import type { FillRow, OrderRow } from '../../src/backtest/report/types.ts';
import { BacktestInputError } from '../../src/backtest/errors.ts';
import { loadTape, type TapeItem } from '../../src/backtest/tape.ts';
import { findTape, openTape, type PendingTape } from '../../src/backtest/tape/cache.ts';
import type { TapeFile } from '../../src/backtest/tape/file.ts';
import { BUILD_THREAD_MIN_BYTES } from '../../src/backtest/tape/build.ts';
import { warmBuildThread } from '../../src/backtest/tape/build-thread.ts';
import { loadConfig } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { exact } from './support-exact.ts';

const GOLDEN_CONFIG = 'test/backtest/golden/fixed-spread.yaml';

async function allItems(tape: TapeFile): Promise<TapeItem[]> {
  const out: TapeItem[] = [];
  for await (const c of tape.chunks()) out.push(...c);
  return out;
}

async function pending(paths: string[], options: Parameters<typeof findTape>[1] = {}): Promise<PendingTape> {
  const found = await findTape(paths, { dir: mkdtempSync(join(tmpdir(), 'ls-tape-build-')), ...options });
  if (!('build' in found)) throw new Error('expected a tape to build');
  return found;
}

const config = () => loadConfig(GOLDEN_CONFIG, { resolveStrategy: defaultStrategyResolver(strategies) });

/** A recording whose account names one of the book's resting orders, its user-feed record at `where`. */
function ownOrderRecording(where: 'before' | 'after'): string {
  const dir = mkdtempSync(join(tmpdir(), 'ls-tape-build-'));
  const file = join(dir, 'feed-own.jsonl.gz');
  const lines = gunzipSync(readFileSync('backtest/data/paper-seed13-deep/feed-20260116T121311585Z-000002.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
  const order = lines.map((l) => /"sideOrders":\[\{"id":"([0-9a-f]+)"/.exec(l)?.[1]).find((id) => id !== undefined)!;
  const at = where === 'before' ? 1 : lines.length - 1;
  const t = (JSON.parse(lines[at]!) as { t: number }).t;
  lines.splice(at, 0, JSON.stringify({ t, k: 'user', c: 1, d: { matched: { orderID: order } } }));
  writeFileSync(file, gzipSync(lines.join('\n') + '\n'));
  return file;
}

/** A recording with a malformed price frame half way through. */
function badLineRecording(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ls-tape-build-'));
  const file = join(dir, 'feed-bad.jsonl.gz');
  const lines = gunzipSync(readFileSync('backtest/data/paper-seed13-deep/feed-20260116T121311585Z-000002.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
  lines.splice(Math.floor(lines.length / 2), 0, '{"t": 1, "k": "price", "c": 1, "d": ["orderUpdate", 7]}');
  writeFileSync(file, gzipSync(lines.join('\n') + '\n'));
  return file;
}

describe.each(['main', 'worker'] as const)(
  'the first replay builds the tape in the same pass (%s thread)',
  (thread) => {
    const pendingOn = (paths: string[], options: Parameters<typeof findTape>[1] = {}) =>
      pending(paths, { thread, ...options });

    it('replays to the golden report while writing a tape that is then reused', async () => {
      const p = await pendingOn(['backtest/data/paper-seed13-deep'], { chunkItems: 700 });
      const out = await runBacktestBuilding({ config: await config(), logger: silentLogger() }, p.build);
      expect(out.again).toBe(false);
      const pinned = JSON.parse(readFileSync('test/backtest/golden/paper-seed13-deep--fixed-spread.json', 'utf8')) as {
        sha256: string;
      };
      expect(createHash('sha256').update(reportJson(out)).digest('hex')).toBe(pinned.sha256);
      const json = await loadTape(['backtest/data/paper-seed13-deep']);
      expect(out.tape.footer.count).toBe(json.items.length);
      // The estimate of a minimal read of the recording, for the ratio a backtest prints.
      expect(out.tape.footer.build.minimalReadMs).toBeGreaterThan(0);
      expect(await allItems(out.tape)).toEqual(json.items);
      const reused = await openTape(['backtest/data/paper-seed13-deep'], { dir: join(p.path, '..') });
      expect(reused.built).toBeNull();
      expect(reused.path).toBe(p.path);
    });

    it.each(['before', 'after'] as const)(
      'gives the tape’s report when the account names its order %s the listing',
      async (where) => {
        const file = ownOrderRecording(where);
        const p = await pendingOn([file], { chunkItems: 200 });
        const cfg = await config();
        const out = await runBacktestBuilding({ config: cfg, logger: silentLogger() }, p.build);
        expect(out.tape.footer.stats.ownListingsRemoved).toBeGreaterThan(0);
        // Named after its listing was handed on: the one pass is not the tape's replay, so it runs again from the tape.
        expect(out.again).toBe(where === 'after');
        const fromTape = await runBacktest({ config: cfg, tape: out.tape, logger: silentLogger() });
        expect(reportJson(out)).toBe(reportJson(fromTape));
        expect(await allItems(out.tape)).toEqual((await loadTape([file])).items);
      },
    );

    it.each(['before', 'after'] as const)(
      'gives a pass that runs again rows of its own when the account names its order %s the listing',
      async (where) => {
        const p = await pendingOn([ownOrderRecording(where)], { chunkItems: 200 });
        const cfg = await config();
        const passes: { orders: OrderRow[]; fills: FillRow[] }[] = [];
        const out = await runBacktestBuilding({ config: cfg, logger: silentLogger() }, p.build, () => {
          const pass = { orders: [] as OrderRow[], fills: [] as FillRow[] };
          passes.push(pass);
          return { orders: { push: (r) => pass.orders.push(r) }, fills: { push: (r) => pass.fills.push(r) } };
        });
        expect(passes).toHaveLength(where === 'after' ? 2 : 1);
        // Handed on, not kept.
        expect(out.orders).toHaveLength(0);
        const fromTape = await runBacktest({ config: cfg, tape: out.tape, logger: silentLogger() });
        expect(fromTape.orders.length).toBeGreaterThan(0);
        expect(fromTape.fills.length).toBeGreaterThan(0);
        const byPlacement = (rows: readonly OrderRow[]) =>
          [...rows].sort((a, b) => a.placedAt - b.placedAt || a.userReference.localeCompare(b.userReference));
        const last = passes.at(-1)!;
        expect(byPlacement(last.orders)).toEqual(byPlacement(fromTape.orders));
        expect(last.fills).toEqual(fromTape.fills);
      },
    );

    it('hands the replay the items a reading of the tape gives, its repeated book orders one object as there', async () => {
      const p = await pendingOn(['backtest/data/paper-seed13-deep'], { chunkItems: 700 });
      const handed: TapeItem[] = [];
      for await (const items of p.build.chunks()) handed.push(...items);
      const read = await allItems(p.build.tape);
      expect(JSON.stringify(exact(handed))).toBe(JSON.stringify(exact(read)));
      // Per chunk, which side-update orders are one object: the same in both.
      const sharing = (items: readonly TapeItem[]) => {
        const out: number[] = [];
        for (let c = 0; c < items.length; c += 700) {
          const seen = new Map<object, number>();
          for (const it of items.slice(c, c + 700))
            if (it.kind === 'price' && it.event.type === 'orderUpdate')
              for (const o of it.event.payload.sideOrders) {
                if (!seen.has(o)) seen.set(o, seen.size);
                out.push(seen.get(o)!);
              }
        }
        return out;
      };
      const shared = sharing(handed);
      expect(shared).toEqual(sharing(read));
      expect(new Set(shared).size).toBeLessThan(shared.length / 2);
    });

    it('writes the whole tape when the replay stops early', async () => {
      const p = await pendingOn(['backtest/data/paper-seed7'], { chunkItems: 500 });
      const chunks = p.build.chunks();
      expect((await chunks.next()).done).toBe(false);
      await chunks.return(undefined);
      const json = await loadTape(['backtest/data/paper-seed7']);
      expect(p.build.count).toBe(json.items.length);
      expect(p.build.exact).toBe(true);
      expect(await allItems(p.build.tape)).toEqual(json.items);
    });

    it('holds a bounded number of chunks, however far the reading could run ahead', async () => {
      const p = await pendingOn(['backtest/data/paper-seed7'], { chunkItems: 64 });
      const chunks = p.build.chunks();
      await chunks.next();
      // The replay is slow: give the reading every chance to run ahead of it.
      await new Promise((r) => setTimeout(r, 300));
      const readAhead = p.build.count;
      await chunks.return(undefined);
      expect(readAhead).toBeLessThan(26_745 / 4);
    });

    it('under --strict stops at a bad line and leaves no tape behind', async () => {
      const file = badLineRecording();
      const p = await pendingOn([file], { strict: true, chunkItems: 100 });
      await expect(
        runBacktestBuilding({ config: await config(), logger: silentLogger() }, p.build),
      ).rejects.toBeInstanceOf(BacktestInputError);
      expect(readdirSync(join(p.path, '..'))).toEqual([]);
    });

    it('skips a bad line, counts it and tells of it as it is read, as the JSON read does', async () => {
      const file = badLineRecording();
      const heard: string[] = [];
      const p = await pendingOn([file], { chunkItems: 100, onProblem: (q) => heard.push(`${q.line}: ${q.problem}`) });
      const out = await runBacktestBuilding({ config: await config(), logger: silentLogger() }, p.build);
      const json = await loadTape([file]);
      expect(out.tape.footer.stats).toEqual(json.stats);
      expect(out.tape.footer.problems).toEqual(json.problems);
      expect(heard).toEqual(json.problems.map((q) => `${q.line}: ${q.problem}`));
      expect(heard.length).toBe(1);
      expect(await allItems(out.tape)).toEqual(json.items);
    });
  },
);

describe('two builds of one tape at once (two processes that each found none)', () => {
  it('the later build leaves the tape the earlier one put in place, for whoever reads it meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ls-tape-build-'));
    const paths = ['backtest/data/paper-seed13-deep'];
    const first = await findTape(paths, { dir });
    const second = await findTape(paths, { dir });
    if (!('build' in first) || !('build' in second)) throw new Error('expected two tapes to build');
    expect(second.path).toBe(first.path);
    await first.build.run();
    const built = readFileSync(first.path);
    // The second build under way: its first items handed on, its own file not yet in place.
    const it = second.build.chunks()[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    expect(readFileSync(first.path).equals(built)).toBe(true);
    for (let r = await it.next(); !r.done; r = await it.next());
    // Then the later build's own file, whole, in its place: a tape found and reused, not rebuilt.
    const again = await findTape(paths, { dir });
    expect('build' in again).toBe(false);
    if (!('build' in again)) expect(await allItems(again.tape)).toEqual(await allItems(first.build.tape));
  });
});

describe('the build thread a process keeps between builds', () => {
  it('reads a small recording on this thread unless told, on the kept thread when told, to the golden report', async () => {
    const size = readdirSync('backtest/data/paper-seed13-deep')
      .filter((f) => f.endsWith('.jsonl.gz'))
      .reduce((n, f) => n + statSync(join('backtest/data/paper-seed13-deep', f)).size, 0);
    // Small enough that its read and encode on a thread would take longer than its replay here.
    expect(size).toBeLessThan(BUILD_THREAD_MIN_BYTES);
    expect(await warmBuildThread()).toBe(true);
    const pinned = JSON.parse(readFileSync('test/backtest/golden/paper-seed13-deep--fixed-spread.json', 'utf8')) as {
      sha256: string;
    };
    for (const thread of ['auto', 'worker', 'worker'] as const) {
      const p = await pending(['backtest/data/paper-seed13-deep'], { chunkItems: 700, thread });
      const out = await runBacktestBuilding({ config: await config(), logger: silentLogger() }, p.build);
      expect(p.build.onThread).toBe(thread === 'worker');
      expect(createHash('sha256').update(reportJson(out)).digest('hex')).toBe(pinned.sha256);
    }
  });

  it('starts each build afresh on the kept thread, whatever the build before it was told', async () => {
    const json = await loadTape(['backtest/data/paper-seed7']);
    // Stopped after its first chunk: the thread drains the rest of this build into its tape.
    const stopped = await pending(['backtest/data/paper-seed7'], { thread: 'worker', chunkItems: 64 });
    const chunks = stopped.build.chunks();
    await chunks.next();
    await chunks.return(undefined);
    expect(await allItems(stopped.build.tape)).toEqual(json.items);
    // The next build on the same thread hands every item on, in order, a bounded number ahead.
    const next = await pending(['backtest/data/paper-seed7'], { thread: 'worker', chunkItems: 500 });
    const handed: TapeItem[] = [];
    for await (const c of { [Symbol.asyncIterator]: () => next.build.chunks() }) handed.push(...c);
    expect(next.build.onThread).toBe(true);
    expect(handed).toEqual(json.items);
    expect(await allItems(next.build.tape)).toEqual(json.items);
  });
});
