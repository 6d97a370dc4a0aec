import { asyncScheduler } from 'rxjs';
import { strategies } from '../src/app/strategy-registry.ts';
import type { CancelEntry, OrderGateway, PlaceEntry, PlaceOrderInput } from '../src/exchange/orders/types.ts';
import type { OrderbookGame } from '../src/exchange/schemas/exchange.ts';
import { createPriceFrameParser } from '../src/exchange/socket/price-parse.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { systemClock } from '../src/shared/clock.ts';
import { silentLogger } from '../src/shared/logger.ts';
import { createRandom } from '../src/shared/random.ts';
import { moneylineGame, stubVenue } from '../test/support/stub-venue.ts';

/**
 * Tick-to-order latency: from a price-feed frame arriving (its text, before parsing) to the
 * place or cancel request handed to the gateway, inside one process, with 200 games
 * subscribed and fixed-spread quoting the moneyline of each with no throttle (the figure
 * excludes any conflation delay the config asks for). The whole path runs: frame parse,
 * book model update, strategy, order-manager plan, risk checks (exact worst-case
 * liability), order bookkeeping. The gateway is a stub that answers at once (on the next
 * microtask) so orders come to rest; nothing is sent over a network.
 *
 * Frames move one side of one game's moneyline by a random step; only frames that make the
 * strategy move a quote beyond its tolerance lead to requests, and only those are measured.
 */
export interface TickToOrderResult {
  readonly games: number;
  readonly frames: number;
  readonly measured: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
}

const hex = (n: number) => n.toString(16).padStart(24, '0');

function snapshot(i: number): OrderbookGame {
  return moneylineGame({
    id: hex(i + 1),
    start: new Date(Date.UTC(2030, 0, 1)).toISOString(),
    away: { id: hex(1_000_000 + 2 * i), longName: `Away ${i}`, shortName: `A${i}` },
    home: { id: hex(1_000_001 + 2 * i), longName: `Home ${i}`, shortName: `H${i}` },
    offers: [
      { id: hex(5_000_000 + 4 * i), team: 'home', odds: -120, size: 500 },
      { id: hex(5_000_000 + 4 * i + 1), team: 'away', odds: 105, size: 500 },
    ],
  });
}

export async function runTickToOrderBench(
  options: { games?: number; frames?: number; seed?: number } = {},
): Promise<TickToOrderResult> {
  const gameCount = options.games ?? 200;
  const frames = options.frames ?? 20_000;
  const random = createRandom(options.seed ?? 1);
  const games = Array.from({ length: gameCount }, (_, i) => snapshot(i));
  let sentAt: number | null = null;
  let nextId = 1;
  const mark = () => {
    sentAt ??= performance.now();
  };
  const gateway: OrderGateway = {
    place: (orders: readonly PlaceOrderInput[]) => {
      mark();
      return Promise.resolve(
        orders.map((o): PlaceEntry => ({
          status: 'accepted',
          userReference: o.userReference ?? null,
          matched: [],
          resting: {
            orderID: hex(9_000_000 + nextId++),
            wagerRequestID: hex(1),
            offered: o.bet,
            odds: o.odds,
            type: o.type,
            side: o.side,
          },
        })),
      );
    },
    cancel: (ids: readonly string[]) => {
      mark();
      return Promise.resolve(
        ids.map((id): CancelEntry => ({
          ok: true,
          orderID: id,
          odds: null,
          filled: 0,
          offered: 0,
          remaining: 0,
          gameID: null,
          userReference: null,
          description: null,
        })),
      );
    },
    heartbeat: async () => {},
  };
  const { venue, prices } = stubVenue({ games, gateway });
  const runtime = new Runtime({
    exchange: venue,
    gateway: 'rest',
    strategies: [
      {
        id: 'fs',
        module: strategies.get('fixed-spread')!,
        params: strategies.get('fixed-spread')!.params.parse({ markets: ['moneyline'] }),
        interest: { leagues: [], sports: [], gameIDs: [], marketTypes: [] },
        live: { kind: 'pull' },
        throttleMs: 0,
      },
    ],
    limits: { maxGameLiability: 1e6, maxTotalLiability: 1e9, maxOrderSize: 1e6, maxOrdersPerGame: 100 },
    usePostArb: true,
    heartbeatSeconds: 3600,
    cancelUnknownOrdersAtStart: false,
    clock: systemClock,
    scheduler: asyncScheduler,
    logger: silentLogger(),
    runId: 'bench',
    tickMs: 3_600_000,
  });
  await runtime.start();
  await new Promise((r) => setTimeout(r, 10));
  const parse = createPriceFrameParser('fast');
  const prices0 = games.map(() => ({ home: -120, away: 105 }));
  const samples: number[] = [];
  let epoch = 1;
  for (let f = 0; f < frames; f++) {
    const gi = random.int(0, gameCount - 1);
    const g = games[gi]!;
    const side = random.chance(0.5) ? 'home' : 'away';
    const p = prices0[gi]!;
    // A random walk of the listed price, kept on a sensible range.
    const step = random.int(-8, 8);
    const next = Math.max(-300, Math.min(300, p[side] + step));
    p[side] = next > -100 && next < 100 ? (step > 0 ? 100 : -100) : next;
    const participantID = side === 'home' ? g.participants[1]!.id : g.participants[0]!.id;
    const text = JSON.stringify([
      'orderUpdate',
      {
        epoch: epoch++,
        gameID: g.id,
        parentGameID: null,
        sport: 'basketball',
        league: 'NBA',
        live: false,
        type: 'moneyline',
        participantID,
        sideOrders: [
          {
            id: hex(7_000_000 + f),
            type: 'moneyline',
            sumUntaken: 500,
            odds: p[side],
            bet: 500,
            gameID: g.id,
            participantID,
          },
        ],
      },
    ]);
    sentAt = null;
    const t0 = performance.now();
    const parsed = parse(text);
    if (parsed.ok) prices.next(parsed.event);
    if (sentAt !== null) samples.push(((sentAt as number) - t0) * 1000);
    // Let gateway answers land, as they would between frames.
    if (f % 16 === 15) await new Promise((r) => setImmediate(r));
  }
  await runtime.stop(1_000);
  samples.sort((a, b) => a - b);
  const q = (x: number) => samples[Math.min(samples.length - 1, Math.floor(x * samples.length))] ?? NaN;
  return {
    games: gameCount,
    frames,
    measured: samples.length,
    p50Us: q(0.5),
    p99Us: q(0.99),
    maxUs: samples[samples.length - 1] ?? NaN,
  };
}
