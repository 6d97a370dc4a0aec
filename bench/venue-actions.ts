import { BacktestCollector } from '../src/backtest/report/collector.ts';
import { BacktestExecution } from '../src/backtest/venue/execution.ts';
import { SimulatedVenue, type VenueBoundary } from '../src/backtest/venue/simulated-venue.ts';
import type { PlaceOrderInput } from '../src/exchange/orders/types.ts';
import { silentLogger } from '../src/shared/logger.ts';
import { manualTime } from '../src/shared/time.ts';
import { moneylineGame } from '../test/support/stub-venue.ts';

/**
 * The cost of one place or cancel through the simulated venue, as a backtest pays it: the
 * latency legs on the virtual clock, the engine replica, the answer and the user-feed
 * messages handed to the runtime's side (through the wire shapes and the client's schemas,
 * or typed), the side sent again to the bot, the report's collector, and the promise the
 * caller awaits. Orders rest off the recorded market (nothing fills), one place then its
 * cancel per round, each awaited as the order manager awaits it; the collector is sampled
 * every 10 s of virtual time, as a backtest samples it. The runtime's own book and order
 * manager are not in the figure: they are the same code on every path.
 */
export interface VenueActionFigure {
  /** `engine`: the execution alone (engine replica, queue records), no venue around it: the floor the venue adds to. */
  readonly boundary: VenueBoundary | 'engine';
  readonly actions: number;
  /** Best of the runs, µs of CPU time per place or cancel. */
  readonly usPerAction: number;
}

const hex = (n: number) => n.toString(16).padStart(24, '0');
const LEG_MS = 5;
/** The backtest runner's default sample period (`backtest.sampleMs`). */
const SAMPLE_MS = 10_000;

const T0 = Date.UTC(2030, 0, 1);

function benchGame() {
  return moneylineGame({
    id: hex(1),
    start: new Date(T0 + 86_400_000).toISOString(),
    away: { id: hex(2), longName: 'Away', shortName: 'A' },
    home: { id: hex(3), longName: 'Home', shortName: 'H' },
    offers: [
      { id: hex(4), team: 'home', odds: -120, size: 500 },
      { id: hex(5), team: 'away', odds: 105, size: 500 },
    ],
  });
}

/**
 * A backtest's orders name their game and side with the strings the tape and the book model
 * hold, one per game: spelt once here too, not per order (a new string is hashed again at
 * every lookup, which a replay never pays).
 */
const GAME_ID = hex(1);
const HOME_ID = hex(3);

/** Backing home at +150 rests behind nothing: the recorded away offers are at 105. */
const order = (r: number) =>
  ({
    gameID: GAME_ID,
    type: 'moneyline',
    side: HOME_ID,
    odds: 150,
    bet: 10,
    orderType: 'post',
    userReference: `ls1:b:${r}`,
  }) as PlaceOrderInput;

/** The same places and cancels straight into the backtest's execution: the engine replica's cost and the queue records'. */
function engineOnly(rounds: number): number {
  const time = manualTime(T0);
  let seen = 0;
  const x = new BacktestExecution({
    time,
    fillModel: { kind: 'risk-averse', power: 1 },
    balance: 1e9,
    commission: 0.01,
    onOwnEvent: () => seen++,
  });
  x.applySnapshot(benchGame(), T0);
  const start = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    let id: string | undefined;
    x.place([order(r)], ([out]) => (id = out?.status === 'ok' ? out.unmatched?.orderID : undefined));
    time.advance(2 * LEG_MS);
    if (id === undefined) throw new Error('the bench’s order was not left resting');
    const [cancelled] = x.cancel([id]);
    time.advance(2 * LEG_MS);
    if (!cancelled?.success) throw new Error('the bench’s cancel failed');
  }
  const used = process.cpuUsage(start);
  if (seen === 0) throw new Error('the execution reported nothing');
  return (used.user + used.system) / (2 * rounds);
}

async function once(boundary: VenueBoundary | 'engine', rounds: number): Promise<number> {
  if (boundary === 'engine') return engineOnly(rounds);
  const t0 = T0;
  const time = manualTime(t0);
  const game = benchGame();
  let collector: BacktestCollector | null = null;
  const venue = new SimulatedVenue({
    time,
    fillModel: { kind: 'risk-averse', power: 1 },
    latency: { place: () => LEG_MS, cancel: () => LEG_MS, edit: () => LEG_MS, fromExchange: () => LEG_MS },
    balance: 1e9,
    commission: 0.01,
    logger: silentLogger(),
    boundary,
    onOwnEvent: (e) => collector?.onOwnEvent(e),
    onPlaceOutcome: (input, outcome) => collector?.onPlaceOutcome(input, outcome),
  });
  collector = new BacktestCollector({
    clock: time.clock,
    execution: venue.execution,
    post: time.post,
  });
  venue.snapshot(game, t0);
  // Sampled as a backtest samples it (the runner's default period): a sample hands on the
  // rows of orders that ended, so the collector holds what a backtest's holds, not every
  // order of the run.
  const sampled = collector;
  const sample = () => {
    sampled.sample();
    time.scheduler.schedule(sample, SAMPLE_MS);
  };
  time.scheduler.schedule(sample, 0);
  let seen = 0;
  venue.userFeed.events$.subscribe(() => seen++);
  venue.priceFeed.events$.subscribe(() => seen++);
  // CPU time, not wall time: the machine is shared, and a busy neighbour would be measured too.
  const start = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    const placing = venue.rest.place([order(r)]);
    time.advance(2 * LEG_MS);
    const [entry] = await placing;
    if (entry?.status !== 'accepted' || !entry.resting)
      throw new Error(`the bench's order was not left resting: ${JSON.stringify(entry)}`);
    const cancelling = venue.rest.cancel([entry.resting.orderID]);
    time.advance(2 * LEG_MS);
    const [cancelled] = await cancelling;
    if (!cancelled?.ok) throw new Error('the bench’s cancel failed');
  }
  const used = process.cpuUsage(start);
  if (seen === 0) throw new Error('the venue sent nothing');
  return (used.user + used.system) / (2 * rounds);
}

/**
 * µs per place or cancel through each boundary, best of `runs` (default 10, after a warm-up
 * run of each): on a shared machine a run measures the neighbours' load on the caches too,
 * and the best of five still moved by a fifth from one bench to the next.
 */
export async function runVenueActionBench(
  options: { rounds?: number; runs?: number; boundaries?: readonly (VenueBoundary | 'engine')[] } = {},
): Promise<VenueActionFigure[]> {
  const rounds = options.rounds ?? 20_000;
  const runs = options.runs ?? 10;
  const boundaries = options.boundaries ?? (['wire', 'typed', 'engine'] as const);
  const best = new Map<VenueBoundary | 'engine', number>(boundaries.map((b) => [b, Infinity]));
  // Every boundary warms up first, then they take turns: the machine's load moves, and a
  // boundary measured only after the other would measure the JIT's warm-up in the first.
  for (const b of boundaries) await once(b, rounds);
  for (let r = 0; r < runs; r++) for (const b of boundaries) best.set(b, Math.min(best.get(b)!, await once(b, rounds)));
  return boundaries.map((boundary) => ({ boundary, actions: 2 * rounds, usPerAction: best.get(boundary)! }));
}
