import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import type { BookOrder } from '../../src/exchange/schemas/book-order.ts';
import type { OrderbookGame } from '../../src/exchange/schemas/exchange.ts';
import type { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';
import type { BookSide, GameState } from '../../src/market-model/types.ts';
import { moneylineGame } from '../support/stub-venue.ts';

/**
 * A side update is applied as a difference against the side before it: offers an update
 * lists again unchanged are the previous side's objects, a list already best first is not
 * sorted again, and a second model fed the very same update takes the first one's side.
 * Whatever the sequence of updates, every side must be what a model that never saw the
 * side before builds from the latest update it applied (the same values, in the same
 * order), and a snapshot handed out must never change afterwards.
 */

const AWAY = 'a'.repeat(24);
const HOME = 'b'.repeat(24);
const G = 'c'.repeat(24);

/** The four sides the sequences update: both moneyline sides and both total sides of one line. */
const SIDES = [
  { label: { type: 'moneyline', participantID: HOME }, key: 'moneyline', idx: 0 },
  { label: { type: 'moneyline', participantID: AWAY }, key: 'moneyline', idx: 1 },
  { label: { type: 'total', OU: 'over', total: 210.5 }, key: 'total:210.5', idx: 0 },
  { label: { type: 'total', OU: 'under', total: 210.5 }, key: 'total:210.5', idx: 1 },
] as const;

/** The game with every book empty, its main lines set (the total sides' line among them). */
function emptyGame(): OrderbookGame {
  return {
    ...moneylineGame({
      id: G,
      start: '2026-05-01T00:00:00.000Z',
      away: { id: AWAY, longName: 'Away', shortName: 'AW' },
      home: { id: HOME, longName: 'Home', shortName: 'HO' },
      offers: [],
    }),
    mainHomeSpread: -3.5,
    mainTotal: 210.5,
    matchedVolume: 0,
  };
}

/** How one order of the side before is listed again. */
const editArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'same' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'copy' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drop' as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 40 }).map((by) => ({ kind: 'shrink' as const, by })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reprice' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'flip-post-arb' as const }) },
);

const oddsArb = fc.oneof(fc.integer({ min: 100, max: 160 }), fc.integer({ min: -160, max: -100 }));

const opArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      side: fc.nat({ max: SIDES.length - 1 }),
      epoch: fc.constantFrom('none', 'older', 'same', 'newer'),
      edits: fc.array(editArb, { maxLength: 8 }),
      inserts: fc.array(fc.record({ at: fc.nat(), odds: oddsArb, size: fc.integer({ min: 1, max: 200 }) }), {
        maxLength: 2,
      }),
      // A list out of price order (the feed lists best first, but the model does not rely on it).
      shuffle: fc.boolean(),
      // The bot's copy: the recorded orders and one of ours, as the backtest's bot feed lists them.
      ours: fc.option(oddsArb, { nil: undefined }),
    }),
  },
  // An order's id became known as ours after its listing arrived.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mine' as const), pick: fc.nat() }) },
  // A strategy takes (and keeps) a snapshot of the game.
  { weight: 2, arbitrary: fc.constant({ kind: 'read' as const }) },
);

/** What a model that never saw the side builds from `orders`, with `isMine` as it answers now. */
function fromScratch(u: OrderUpdate, isMine: (id: string) => boolean): BookSide {
  const fresh = new MarketModel(isMine);
  fresh.upsertGame(emptyGame(), 0);
  fresh.applyOrderUpdate(u, 0);
  const s = SIDES.find((x) => x.label.type === u.type && sameLabel(x.label, u))!;
  return fresh.side(G, s.key, s.idx as 0 | 1)!;
}

function sameLabel(label: (typeof SIDES)[number]['label'], u: OrderUpdate): boolean {
  return Object.entries(label).every(([k, v]) => (u as unknown as Record<string, unknown>)[k] === v);
}

/** The side's values without object identity: what a reader sees. */
const valuesOf = (s: BookSide | undefined) =>
  s === undefined ? undefined : { taker: s.taker, epoch: s.epoch, offers: s.offers.map((o) => ({ ...o })) };

describe('MarketModel: a side updated as a difference against the one before', () => {
  test.prop([fc.array(opArb, { minLength: 1, maxLength: 40 })], { numRuns: 150 })(
    'equals the side built from scratch from the latest update applied, and snapshots never change',
    (ops) => {
      const mine = new Set<string>();
      const isMine = (id: string) => mine.has(id);
      // The recorded market's model (no order is ours), the bot's (fed after it, often the
      // very same update) and one fed the bot's updates with no model before it.
      const recorded = new MarketModel(null);
      const bot = new MarketModel(isMine);
      const alone = new MarketModel(isMine);
      const models = [recorded, bot, alone];
      for (const m of models) m.upsertGame(emptyGame(), 0);
      /** Per side: the orders listed now, and per model the latest update applied and its epoch. */
      const lists: BookOrder[][] = SIDES.map(() => []);
      const applied = models.map(() =>
        SIDES.map(() => ({ u: null as OrderUpdate | null, epoch: null as number | null })),
      );
      const held: { state: GameState; copy: unknown }[] = [];
      let seq = 0;
      let t = 1;
      for (const op of ops) {
        t++;
        if (op.kind === 'read') {
          const state = bot.game(G)!;
          held.push({ state, copy: structuredClone(stateValues(state)) });
          continue;
        }
        if (op.kind === 'mine') {
          const ids = lists.flat().map((o) => o.id);
          if (ids.length === 0) continue;
          const id = ids[op.pick % ids.length]!;
          mine.add(id);
          for (const m of [bot, alone]) m.remarkMine(G, id, t);
          continue;
        }
        const before = lists[op.side]!;
        const next: BookOrder[] = [];
        before.forEach((o, i) => {
          const e = op.edits[i] ?? { kind: 'same' as const };
          if (e.kind === 'same') next.push(o);
          else if (e.kind === 'copy') next.push({ ...o });
          else if (e.kind === 'shrink') next.push({ ...o, sumUntaken: Math.max(1, o.sumUntaken - e.by) });
          else if (e.kind === 'reprice') next.push({ ...o, odds: o.odds >= 100 ? o.odds + 1 : o.odds - 1 });
          else if (e.kind === 'flip-post-arb') next.push({ ...o, isPostArb: !o.isPostArb });
        });
        for (const ins of op.inserts) {
          const o: BookOrder = { id: `o${seq++}`, sumUntaken: ins.size, odds: ins.odds, bet: ins.size };
          next.splice(ins.at % (next.length + 1), 0, o);
        }
        // Best first, as the feed lists a side, unless this update comes out of order.
        const sorted = next.slice().sort((a, b) => rank(b.odds) - rank(a.odds));
        const orders = op.shuffle ? next : sorted;
        lists[op.side] = orders;
        const lastEpoch = applied[0]![op.side]!.epoch ?? 0;
        const epoch =
          op.epoch === 'none'
            ? undefined
            : op.epoch === 'older'
              ? lastEpoch - 1
              : op.epoch === 'same'
                ? lastEpoch
                : lastEpoch + 1;
        const s = SIDES[op.side]!;
        const u = {
          ...(epoch === undefined ? {} : { epoch }),
          gameID: G,
          sport: 'basketball',
          league: 'NBA',
          ...s.label,
          sideOrders: orders,
        } as OrderUpdate;
        // The bot's copy lists one of ours after the recorded orders at its price.
        let forBot = u;
        if (op.ours !== undefined) {
          const ours: BookOrder = { id: `ours${seq++}`, sumUntaken: 20, odds: op.ours, bet: 20 };
          mine.add(ours.id);
          forBot = { ...u, sideOrders: [...orders, ours] };
        }
        const feeds: [MarketModel, OrderUpdate][] = [
          [recorded, u],
          [bot, forBot],
          [alone, forBot],
        ];
        feeds.forEach(([m, v], k) => {
          const c = m === recorded ? m.applyOrderUpdate(v, t, m.resolveSide(v)) : m.applyOrderUpdate(v, t);
          const was = applied[k]![op.side]!;
          const stale = epoch !== undefined && was.epoch !== null && epoch < was.epoch;
          expect(c === null).toBe(stale);
          if (!stale) applied[k]![op.side] = { u: v, epoch: epoch ?? was.epoch };
        });
        // Every side of every model: what a model that never saw it builds from the latest update applied.
        models.forEach((m, k) => {
          SIDES.forEach((side, i) => {
            const a = applied[k]![i]!;
            const got = m.side(G, side.key, side.idx as 0 | 1);
            if (a.u === null) {
              expect(got?.offers ?? []).toEqual([]);
              return;
            }
            const want = fromScratch(a.u, m === recorded ? () => false : isMine);
            expect(valuesOf(got)).toEqual({ ...valuesOf(want), epoch: a.epoch });
          });
        });
        expect(valuesOf(bot.side(G, s.key, s.idx as 0 | 1))).toEqual(valuesOf(alone.side(G, s.key, s.idx as 0 | 1)));
        expect(stateValues(bot.game(G)!)).toEqual(stateValues(alone.game(G)!));
        // A snapshot lists the books the model holds now, each under its own key, and no other.
        for (const m of models) {
          const books = m.game(G)!.books;
          const keys = [...new Set(SIDES.map((x) => x.key))].filter((k) => m.book(G, k) !== undefined);
          expect([...books.keys()].sort()).toEqual(keys.sort());
          for (const k of keys) expect(books.get(k)).toBe(m.book(G, k));
        }
      }
      // Whatever came after, a snapshot reads as it did when it was handed out.
      for (const h of held) expect(stateValues(h.state)).toEqual(h.copy);
    },
  );
});

function rank(odds: number): number {
  return odds >= 100 ? odds - 100 : odds + 100;
}

/** A snapshot's values, books included (a BookMap is not a plain Map for structuredClone). */
function stateValues(s: GameState) {
  return {
    ...s,
    books: [...s.books.entries()].map(([k, b]) => [k, b.type, b.sides.map(valuesOf)]),
  };
}
