import { describe, expect, it } from 'vitest';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { OrderbookGame, type OrderbookGame as OrderbookGameT } from '../../src/exchange/schemas/exchange.ts';
import { OrderUpdate } from '../../src/exchange/schemas/price-feed.ts';
import { isOrderUpdate } from '../../src/exchange/socket/price-guards.ts';
import { createPriceFrameParser } from '../../src/exchange/socket/price-parse.ts';
import { AWAY, gameFields, HOME, listed } from '../exchange/support-game-shapes.ts';

/**
 * orderUpdate shapes of the exchange's own examples (feeds-and-semantics §8), written from
 * that section's facts: non-1x2 updates and their side orders labelled with the market's
 * name (`main`) and a side name (`under`), `spread: null` inside a total's side orders, and
 * `epoch` used only to drop an update strictly older than the last applied on that side.
 */

const G = 'dd0000000000000000000001';
const MODES = ['fast', 'compiled', 'zod'] as const;

function emptyGame(): OrderbookGameT {
  const collections = [
    'homeMoneylines',
    'awayMoneylines',
    'homeSpreads',
    'awaySpreads',
    'over',
    'under',
    'homeMoneylines1x2',
    'awayMoneylines1x2',
    'draw1x2',
  ];
  return OrderbookGame.parse({ ...gameFields({ id: G }), ...Object.fromEntries(collections.map((c) => [c, []])) });
}

/** An update of one side, in the exchange's spelling for its market type. */
function update(
  kind: 'under' | 'over' | 'homeSpread' | 'awayMoneyline' | 'drawYes',
  epoch: number | undefined,
  orderIDs: string[],
  odds = -110,
): Record<string, unknown> {
  const labels: Record<typeof kind, Record<string, unknown>> = {
    under: { type: 'total', participantID: null, market: 'main', side: 'under', OU: 'under', total: 221.5 },
    over: { type: 'total', participantID: null, market: 'main', side: 'over', OU: 'over', total: 221.5 },
    homeSpread: { type: 'spread', participantID: HOME, market: 'main', side: HOME, spread: -3.5 },
    awayMoneyline: { type: 'moneyline', participantID: AWAY, market: 'main', side: AWAY },
    drawYes: { type: 'moneyline1x2', participantID: '', market: 'draw', side: 'yes' },
  };
  const label = labels[kind];
  // A total's side orders carry `spread: null`.
  const orderLabel = label.type === 'total' ? { ...label, spread: null } : label;
  return {
    ...(epoch === undefined ? {} : { epoch }),
    gameID: G,
    parentGameID: null,
    sport: 'basketball',
    league: 'NBA',
    live: false,
    ...label,
    mainHomeSpread: -3.5,
    mainAwaySpread: 3.5,
    mainTotal: 221.5,
    sideOrders: orderIDs.map((id) => listed(G, orderLabel, { id, odds, bet: 50 })),
  };
}

function parsed(frame: Record<string, unknown>): OrderUpdate {
  const out = createPriceFrameParser('fast')(JSON.stringify(['orderUpdate', frame]));
  if (!out.ok || out.event.type !== 'orderUpdate') throw new Error(`not an orderUpdate: ${JSON.stringify(out)}`);
  return out.event.payload;
}

describe('orderUpdate shapes of the exchange (feeds §8)', () => {
  for (const mode of MODES) {
    it(`parser (${mode}): market "main", side names, spread null in a total's orders, and a missing epoch are all accepted`, () => {
      const parse = createPriceFrameParser(mode);
      for (const kind of ['under', 'homeSpread', 'awayMoneyline', 'drawYes'] as const) {
        for (const epoch of [7, undefined]) {
          const out = parse(JSON.stringify(['orderUpdate', update(kind, epoch, ['dd00000000000000000000a1'])]));
          expect(out.ok, `${kind} epoch ${epoch}: ${JSON.stringify(out)}`).toBe(true);
        }
      }
    });
  }

  it('the fast guard and the schema agree on an update without epoch, and on a non-number epoch', () => {
    const missing = update('under', undefined, ['dd00000000000000000000a1']);
    expect(isOrderUpdate(missing)).toBe(true);
    expect(OrderUpdate.safeParse(missing).success).toBe(true);
    for (const epoch of [null, 'seven']) {
      const u = { ...missing, epoch };
      expect(isOrderUpdate(u)).toBe(OrderUpdate.safeParse(u).success);
    }
  });

  it('the book keys totals on OU + total and spreads on participant + spread, whatever market/side say; 1x2 on market + side', () => {
    const m = new MarketModel(() => false);
    m.applySnapshot(emptyGame(), 0);
    expect(m.applyOrderUpdate(parsed(update('under', 1, ['u1'])), 1)).toMatchObject({
      bookKey: 'total:221.5',
      side: 1,
    });
    expect(m.applyOrderUpdate(parsed(update('over', 1, ['o1'])), 1)).toMatchObject({ bookKey: 'total:221.5', side: 0 });
    expect(m.applyOrderUpdate(parsed(update('homeSpread', 1, ['s1'])), 1)).toMatchObject({
      bookKey: 'spread:-3.5',
      side: 0,
    });
    expect(m.applyOrderUpdate(parsed(update('awayMoneyline', 1, ['m1'])), 1)).toMatchObject({
      bookKey: 'moneyline',
      side: 1,
    });
    expect(m.applyOrderUpdate(parsed(update('drawYes', 1, ['d1'])), 1)).toMatchObject({
      bookKey: 'moneyline1x2:draw',
      side: 0,
    });
    expect(m.stats.unreadableSides).toBe(0);
    expect(m.side(G, 'total:221.5', 1)?.offers.map((o) => o.id)).toEqual(['u1']);
  });

  it('a snapshot whose total orders say market "main", a side name and spread null lists them on their total', () => {
    const m = new MarketModel(() => false);
    const under = listed(
      G,
      { type: 'total', OU: 'under', total: 221.5, spread: null, market: 'main', side: 'under' },
      { id: 'u2', odds: -105, bet: 30 },
    );
    m.applySnapshot(OrderbookGame.parse({ ...emptyGame(), under: { '221.5': [under] } }), 0);
    expect(m.side(G, 'total:221.5', 1)?.offers.map((o) => o.id)).toEqual(['u2']);
  });
});

describe('epoch: drop only an update strictly older than the last applied on that same side', () => {
  function model() {
    const m = new MarketModel(() => false);
    m.applySnapshot(emptyGame(), 0);
    const apply = (kind: Parameters<typeof update>[0], epoch: number | undefined, ids: string[]) =>
      m.applyOrderUpdate(parsed(update(kind, epoch, ids)), 1);
    const under = () => m.side(G, 'total:221.5', 1)?.offers.map((o) => o.id);
    return { m, apply, under };
  }

  it('an equal epoch applies; a lower one is dropped and counted', () => {
    const { m, apply, under } = model();
    expect(apply('under', 10, ['a'])).not.toBeNull();
    expect(apply('under', 10, ['b'])).not.toBeNull();
    expect(under()).toEqual(['b']);
    expect(apply('under', 9, ['c'])).toBeNull();
    expect(under()).toEqual(['b']);
    expect(m.stats.staleUpdates).toBe(1);
  });

  it("a missing epoch never drops an update, and does not move the side's last epoch", () => {
    const { m, apply, under } = model();
    expect(apply('under', undefined, ['a'])).not.toBeNull();
    expect(apply('under', 10, ['b'])).not.toBeNull();
    expect(apply('under', undefined, ['c'])).not.toBeNull();
    expect(under()).toEqual(['c']);
    expect(m.side(G, 'total:221.5', 1)?.epoch).toBe(10);
    // Older than the last applied epoch (10): dropped.
    expect(apply('under', 9, ['d'])).toBeNull();
    expect(under()).toEqual(['c']);
    expect(m.stats.staleUpdates).toBe(1);
  });

  it("another side's epoch does not count: the over side takes an update older than the under side's last", () => {
    const { m, apply } = model();
    apply('under', 100, ['a']);
    expect(apply('over', 5, ['b'])).not.toBeNull();
    expect(m.side(G, 'total:221.5', 0)?.offers.map((o) => o.id)).toEqual(['b']);
    expect(m.stats.staleUpdates).toBe(0);
  });

  it('a side listed only by a snapshot has no epoch applied yet: any epoch applies, even zero or below', () => {
    const { m, apply, under } = model();
    expect(m.side(G, 'total:221.5', 1)).toBeUndefined();
    m.applySnapshot(
      OrderbookGame.parse({
        ...emptyGame(),
        under: [listed(G, { type: 'total', OU: 'under', total: 221.5 }, { id: 's', odds: -110, bet: 10 })],
      }),
      0,
    );
    expect(m.side(G, 'total:221.5', 1)?.epoch).toBeNull();
    expect(apply('under', -1, ['a'])).not.toBeNull();
    expect(under()).toEqual(['a']);
    expect(m.stats.staleUpdates).toBe(0);
  });
});
