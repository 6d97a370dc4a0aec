import { BacktestCollector } from '../src/backtest/report/collector.ts';
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
 * cancel per round, each awaited as the order manager awaits it. The runtime's own book and
 * order manager are not in the figure: they are the same code on every path.
 */
export interface VenueActionFigure {
  readonly boundary: VenueBoundary;
  readonly actions: number;
  /** Best of the runs, µs of CPU time per place or cancel. */
  readonly usPerAction: number;
}

const hex = (n: number) => n.toString(16).padStart(24, '0');
const LEG_MS = 5;

async function once(boundary: VenueBoundary, rounds: number): Promise<number> {
  const t0 = Date.UTC(2030, 0, 1);
  const time = manualTime(t0);
  const game = moneylineGame({
    id: hex(1),
    start: new Date(t0 + 86_400_000).toISOString(),
    away: { id: hex(2), longName: 'Away', shortName: 'A' },
    home: { id: hex(3), longName: 'Home', shortName: 'H' },
    offers: [
      { id: hex(4), team: 'home', odds: -120, size: 500 },
      { id: hex(5), team: 'away', odds: 105, size: 500 },
    ],
  });
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
  collector = new BacktestCollector({ clock: time.clock, execution: venue.execution, schedule: (work, ms) => time.scheduler.schedule(work, ms) });
  venue.snapshot(game, t0);
  let seen = 0;
  venue.userFeed.events$.subscribe(() => seen++);
  venue.priceFeed.events$.subscribe(() => seen++);
  // CPU time, not wall time: the machine is shared, and a busy neighbour would be measured too.
  const start = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    // Backing home at +150 rests behind nothing: the recorded away offers are at 105.
    const order = { gameID: game.id, type: 'moneyline', side: hex(3), odds: 150, bet: 10, orderType: 'post', userReference: `ls1:b:${r}` } as PlaceOrderInput;
    const placing = venue.rest.place([order]);
    time.advance(2 * LEG_MS);
    const [entry] = await placing;
    if (entry?.status !== 'accepted' || !entry.resting) throw new Error(`the bench's order was not left resting: ${JSON.stringify(entry)}`);
    const cancelling = venue.rest.cancel([entry.resting.orderID]);
    time.advance(2 * LEG_MS);
    const [cancelled] = await cancelling;
    if (!cancelled?.ok) throw new Error('the bench’s cancel failed');
  }
  const used = process.cpuUsage(start);
  if (seen === 0) throw new Error('the venue sent nothing');
  return (used.user + used.system) / (2 * rounds);
}

/** µs per place or cancel through each boundary, best of `runs` (the first warms the JIT up). */
export async function runVenueActionBench(options: { rounds?: number; runs?: number; boundaries?: readonly VenueBoundary[] } = {}): Promise<VenueActionFigure[]> {
  const rounds = options.rounds ?? 20_000;
  const runs = options.runs ?? 5;
  const boundaries = options.boundaries ?? (['wire', 'typed'] as const);
  const best = new Map<VenueBoundary, number>(boundaries.map((b) => [b, Infinity]));
  // Every boundary warms up first, then they take turns: the machine's load moves, and a
  // boundary measured only after the other would measure the JIT's warm-up in the first.
  for (const b of boundaries) await once(b, rounds);
  for (let r = 0; r < runs; r++) for (const b of boundaries) best.set(b, Math.min(best.get(b)!, await once(b, rounds)));
  return boundaries.map((boundary) => ({ boundary, actions: 2 * rounds, usPerAction: best.get(boundary)! }));
}
