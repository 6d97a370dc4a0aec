import { MatchingEngine, createIdGenerator, type PlaceInput } from '../src/engine/index.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { createRandom } from '../src/shared/random.ts';

/**
 * Engine throughput on a realistic maker mix: ~80% post and cancel, ~20% crossing
 * orders, on moneyline books that hold about 1,000 resting orders each. The op stream is
 * generated before timing so only the engine is measured.
 */
export interface EngineBenchResult {
  readonly ops: number;
  readonly seconds: number;
  readonly opsPerSecond: number;
  /** Ops per second of process CPU time: steadier than wall time on a busy machine. */
  readonly opsPerCpuSecond: number;
  readonly restingAtEnd: number;
  readonly fills: number;
}

type Op =
  | { kind: 'post'; user: string; input: PlaceInput }
  | { kind: 'cancel'; user: string; slot: number }
  | { kind: 'cross'; user: string; input: PlaceInput };

const GAMES = 8;
const BOOK_DEPTH = 1000;
const RETENTION = 60_000;

function hex24(prefix: number, n: number): string {
  return prefix.toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');
}

export function runEngineBench(totalOps = 2_000_000, seed = 42): EngineBenchResult {
  const random = createRandom(seed);
  const int = (lo: number, hi: number) => random.int(lo, hi);
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(seed), closedOrderRetentionMs: RETENTION });
  const makers = ['m1', 'm2', 'm3', 'm4'];
  for (const id of [...makers, 't1', 't2']) engine.addUser({ id, balance: 1e12, commissionRate: 0.01 });
  const games: { id: string; away: string; home: string }[] = [];
  for (let g = 0; g < GAMES; g++) {
    const game = { id: hex24(0xa0, g), away: hex24(0xb0, g), home: hex24(0xc0, g) };
    games.push(game);
    engine.addGame({
      id: game.id,
      league: 'NBA',
      sport: 'basketball',
      participants: [
        { id: game.away, longName: `Away ${g}`, shortName: `A${g}` },
        { id: game.home, longName: `Home ${g}`, shortName: `H${g}` },
      ],
      start: clock.now() + 86_400_000,
    });
  }

  // Makers back home at -105..-140 (listed for away takers at +105..+140) and away at
  // +100..+135 (listed for home takers at -100..-135): the book is never crossed.
  const postInput = (g: number): PlaceInput => {
    const game = games[g]!;
    const home = int(0, 1) === 0;
    return home
      ? {
          gameID: game.id,
          type: 'moneyline',
          side: game.home,
          odds: -int(105, 140),
          bet: int(20, 500),
          orderType: 'post',
        }
      : {
          gameID: game.id,
          type: 'moneyline',
          side: game.away,
          odds: int(100, 135),
          bet: int(20, 500),
          orderType: 'post',
        };
  };
  // Takers cross at the best level or two: small stakes so most hits are partial fills.
  const crossInput = (g: number): PlaceInput => {
    const game = games[g]!;
    return int(0, 1) === 0
      ? { gameID: game.id, type: 'moneyline', side: game.away, odds: 100, bet: int(5, 120) }
      : { gameID: game.id, type: 'moneyline', side: game.home, odds: -200, bet: int(5, 120) };
  };

  const resting: string[] = [];
  const ownerOf = new Map<string, string>();
  const post = (user: string, input: PlaceInput) => {
    const [entry] = engine.place(user, [input]);
    if (entry?.status === 'ok' && entry.unmatched) {
      resting.push(entry.unmatched.orderID);
      ownerOf.set(entry.unmatched.orderID, user);
    }
  };
  for (let g = 0; g < GAMES; g++) for (let i = 0; i < BOOK_DEPTH; i++) post(makers[i % makers.length]!, postInput(g));

  // Ops are generated in chunks outside the timed section: a 2M-entry array would make the
  // benchmark measure its own garbage collection.
  const CHUNK = 10_000;
  const ops: Op[] = new Array(CHUNK);
  let fills = 0;
  let elapsed = 0n;
  let cpuMicros = 0;
  for (let done = 0; done < totalOps; done += CHUNK) {
    const n = Math.min(CHUNK, totalOps - done);
    for (let i = 0; i < n; i++) {
      const r = int(0, 99);
      const g = int(0, GAMES - 1);
      if (r < 40) ops[i] = { kind: 'post', user: makers[int(0, makers.length - 1)]!, input: postInput(g) };
      else if (r < 80) ops[i] = { kind: 'cancel', user: '', slot: int(0, 2 ** 30) };
      else ops[i] = { kind: 'cross', user: int(0, 1) ? 't1' : 't2', input: crossInput(g) };
    }
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const op = ops[i]!;
      // Time passes as it would live (1 ms per operation), so closed orders age out.
      clock.advance(1);
      if (op.kind === 'post') {
        post(op.user, op.input);
      } else if (op.kind === 'cancel') {
        // Crossing orders drain the books; a cancel below the target depth becomes a post
        // so the books stay near BOOK_DEPTH throughout.
        if (resting.length < GAMES * BOOK_DEPTH) {
          post(makers[op.slot % makers.length]!, postInput(op.slot % GAMES));
          continue;
        }
        const slot = op.slot % resting.length;
        const id = resting[slot]!;
        resting[slot] = resting[resting.length - 1]!;
        resting.pop();
        engine.cancel(ownerOf.get(id)!, id);
        ownerOf.delete(id);
      } else {
        const [entry] = engine.place(op.user, [op.input]);
        if (entry?.status === 'ok') fills += entry.matched.length;
      }
    }
    elapsed += process.hrtime.bigint() - start;
    const cpu = process.cpuUsage(cpuStart);
    cpuMicros += cpu.user + cpu.system;
  }
  const seconds = Number(elapsed) / 1e9;
  let restingAtEnd = 0;
  for (const g of games) restingAtEnd += engine.openOrderCount(g.id);
  return {
    ops: totalOps,
    seconds,
    opsPerSecond: totalOps / seconds,
    opsPerCpuSecond: totalOps / (cpuMicros / 1e6),
    restingAtEnd,
    fills,
  };
}
