import { describe, expect, it } from 'vitest';
import type { GameState, OwnOrder } from '../../src/market-model/types.ts';
import { planGame } from '../../src/orders/plan.ts';
import { pricePost } from '../../src/orders/post-pricing.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';
import { id, listGame, setup } from './support.ts';

const home = { type: 'moneyline', team: 'home' } as const;
const away = { type: 'moneyline', team: 'away' } as const;
const intent = (key: string, odds: number, size = 100, extra: Partial<QuoteIntent> = {}): QuoteIntent => ({
  key,
  selection: home,
  odds,
  size,
  ...extra,
});
let n = 0;
const order = (
  key: string | null,
  odds: number,
  status: OwnOrder['status'] = 'resting',
  remaining = 100,
): OwnOrder => ({
  clientId: `c${n++}`,
  userReference: `r${n}`,
  orderID: `o${n}`,
  strategyId: 's',
  intentKey: key,
  gameID: 'g',
  selection: home,
  odds,
  bet: 100,
  filled: 100 - remaining,
  remaining,
  status,
  isPostArb: false,
  createdAt: 0,
  updatedAt: 0,
});
const plan = (intents: QuoteIntent[], orders: OwnOrder[], blocked: string[] = []) =>
  planGame({ strategyId: 's', gameID: 'g', intents, orders, blockedKeys: new Set(blocked) });

describe('planGame', () => {
  it('keeps an order within tolerance, replaces one beyond it, cancels orphans and duplicates', () => {
    const keep = order('a', 110);
    const moved = order('b', 120);
    const orphan = order('gone', 130);
    const dup = order('a', 110);
    const p = plan(
      [intent('a', 112, 100, { toleranceCents: 3 }), intent('b', 125, 100, { toleranceCents: 3 }), intent('c', 140)],
      [keep, moved, orphan, dup],
    );
    expect(p.kept).toBe(1);
    expect(p.cancels).toEqual([moved, orphan, dup]);
    expect(p.places.map((i) => i.key)).toEqual(['b', 'c']);
  });

  it('never acts on an order with an answer in flight, nor places for its key while its place is in flight', () => {
    for (const status of ['pending-place', 'unknown'] as const) {
      const p = plan([intent('a', 150)], [order('a', 110, status)]);
      expect(p.cancels).toEqual([]);
      expect(p.places).toEqual([]);
    }
    // Being cancelled: left alone, but it no longer serves its key.
    const p = plan([intent('a', 150)], [order('a', 110, 'pending-cancel')]);
    expect(p.cancels).toEqual([]);
    expect(p.places.map((i) => i.key)).toEqual(['a']);
  });

  it('keeps the order that replaced one whose cancel is still in flight', () => {
    const old = order('a', 110, 'pending-cancel');
    const replacement = order('a', 120);
    const p = plan([intent('a', 120)], [old, replacement]);
    expect(p.cancels).toEqual([]);
    expect(p.places).toEqual([]);
    expect(p.kept).toBe(1);
  });

  it('through the order manager: a replaced quote stays while the old cancel is in flight', () => {
    const { market, orders, own, placed, sent } = setup();
    listGame(market);
    const quote = (odds: number) => [
      { strategyId: 's', gameID: 'g', mode: 'active' as const, intents: [intent('k', odds, 50)] },
    ];
    const rest = (i: number, orderID: string) => {
      const ref = placed[i]!.userReference!;
      const clientId = ref.split(':')[2]!;
      orders.onResult({
        kind: 'placed',
        clientIds: [clientId],
        entries: [
          {
            status: 'accepted',
            userReference: ref,
            matched: [],
            resting: { orderID, wagerRequestID: 'b'.repeat(24), offered: 50 } as never,
          },
        ],
      });
      return clientId;
    };
    orders.cycle(quote(110));
    const first = rest(0, id(1001));
    // The quote moves: the old order is cancelled (no answer yet), its replacement placed and rests.
    orders.cycle(quote(120));
    expect(own.order(first)!.status).toBe('pending-cancel');
    const second = rest(1, id(1002));
    orders.cycle(quote(120));
    expect(own.order(second)!.status).toBe('resting');
    expect(sent).toEqual({ places: 2, cancels: 1 });
  });

  it('replaces a partly filled order whose remaining size is outside the size tolerance', () => {
    expect(
      plan([intent('a', 110, 100, { sizeTolerance: 0.2 })], [order('a', 110, 'partly-filled', 85)]).places,
    ).toEqual([]);
    expect(
      plan([intent('a', 110, 100, { sizeTolerance: 0.2 })], [order('a', 110, 'partly-filled', 50)]).places,
    ).toHaveLength(1);
  });

  it('does not send blocked keys and sends nothing when nothing changed', () => {
    expect(plan([intent('a', 110)], [], ['a']).places).toEqual([]);
    const p = plan([intent('a', 110)], [order('a', 110)]);
    expect(p.places).toEqual([]);
    expect(p.cancels).toEqual([]);
  });
});

function gameWith(homeTakerOffers: { odds: number; mine?: boolean }[]): GameState {
  const side = (taker: typeof home | typeof away, offers: { odds: number; mine?: boolean }[]) => ({
    taker,
    epoch: 1,
    offers: offers.map((o, i) => ({
      id: `x${i}`,
      odds: o.odds,
      sumUntaken: 100,
      bet: 100,
      isPostArb: false,
      mine: o.mine ?? false,
    })),
  });
  return {
    id: 'g',
    league: 'NBA',
    sport: 'basketball',
    parentGameID: null,
    start: 0,
    live: false,
    ended: false,
    participants: { awayId: 'a', homeId: 'h', awayName: 'A', homeName: 'H' },
    mainHomeSpread: null,
    mainTotal: null,
    matchedVolume: 0,
    books: new Map([
      [
        'moneyline',
        { key: 'moneyline', type: 'moneyline', sides: [side(home, homeTakerOffers), side(away, [])] as const },
      ],
    ]),
    updatedAt: 0,
  };
}

describe('pricePost', () => {
  it('sends a post as is when it would not cross', () => {
    expect(pricePost(gameWith([{ odds: -120 }]), home, -110, true)).toEqual({
      kind: 'as-is',
      orderType: 'post',
      odds: -110,
    });
  });
  it('sends it as postArb when the crossing offer is within 1%', () => {
    // Backing home at +200 meets a home offer listed at +201: within 1% of 201.
    expect(pricePost(gameWith([{ odds: 201 }]), home, 200, true)).toMatchObject({
      kind: 'post-arb',
      orderType: 'postArb',
      odds: 200,
      against: 201,
    });
  });
  it('re-prices one tick clear of the book when postArb is off or the offer is beyond the band', () => {
    expect(pricePost(gameWith([{ odds: 201 }]), home, 200, false)).toMatchObject({ kind: 'repriced', odds: 202 });
    expect(pricePost(gameWith([{ odds: 150 }]), home, 110, true)).toMatchObject({ kind: 'repriced', odds: 151 });
    expect(pricePost(gameWith([{ odds: -101 }]), home, -105, true)).toMatchObject({ kind: 'repriced', odds: 100 });
  });
  it('never prices a postArb that could meet our own offer: re-prices clear of it instead', () => {
    // Ours is the best: a postArb would take it first.
    expect(pricePost(gameWith([{ odds: 201, mine: true }, { odds: 200 }]), home, 200, true)).toMatchObject({
      kind: 'repriced',
      odds: 202,
      crossed: 201,
    });
    // A better foreign offer first, ours behind it still within reach of our price.
    expect(pricePost(gameWith([{ odds: 201 }, { odds: 200, mine: true }]), home, 200, true)).toMatchObject({
      kind: 'repriced',
      odds: 202,
      crossed: 201,
    });
    // Ours out of reach: the postArb meets foreign offers only.
    expect(pricePost(gameWith([{ odds: 201 }, { odds: 150, mine: true }]), home, 200, true)).toMatchObject({
      kind: 'post-arb',
      against: 201,
    });
  });
  it('counts our own orders the feed does not list (or flag ours) yet, from the odds our book says they are listed at', () => {
    // The feed shows only a foreign +200; our pending order is listed at +201 for these takers.
    expect(pricePost(gameWith([{ odds: 200 }]), home, 200, true, [201])).toMatchObject({
      kind: 'repriced',
      odds: 202,
      crossed: 201,
    });
    // Not in the feed at all, and the only thing a post at +110 would meet.
    expect(pricePost(gameWith([]), home, 110, true, [115])).toMatchObject({ kind: 'repriced', odds: 116 });
    // Out of reach: no effect.
    expect(pricePost(gameWith([{ odds: 201 }]), home, 200, true, [150])).toMatchObject({
      kind: 'post-arb',
      against: 201,
    });
  });
  it('re-prices a post that would meet only our own offer, which a plain post would be rejected for', () => {
    expect(pricePost(gameWith([{ odds: 120, mine: true }, { odds: 105 }]), home, 110, true)).toMatchObject({
      kind: 'repriced',
      odds: 121,
    });
  });
});
