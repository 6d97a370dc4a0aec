import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { bookKeyOf, sideIndexOf, type Selection } from '../../src/markets/types.ts';
import type { OwnOrder } from '../../src/market-model/types.ts';
import { backsOtherSide, wouldMeet } from '../../src/orders/self-match.ts';
import { moneylineGame } from '../support/stub-venue.ts';
import { setup } from './support.ts';

const id = (n: number) => n.toString(16).padStart(24, '0');

/** Ours backing home at +110: listed for takers of away at -110. */
const restingHome = (over: Partial<OwnOrder> = {}): OwnOrder => ({
  clientId: 'c1',
  userReference: 'ls1:s:c1',
  orderID: null,
  strategyId: 's',
  intentKey: 'k',
  gameID: 'g',
  selection: { type: 'moneyline', team: 'home' },
  odds: 110,
  bet: 50,
  filled: 0,
  remaining: 50,
  status: 'pending-place',
  isPostArb: false,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

describe('our own orders are never matched by our own crossing orders', () => {
  it('finds an own order a crossing order would meet: the other side of the same book, at the price asked or better', () => {
    const away = { type: 'moneyline', team: 'away' } as const;
    expect(wouldMeet(restingHome(), away, -110)).toBe(true);
    expect(wouldMeet(restingHome(), away, -115)).toBe(true);
    // Asking a better price than ours is listed at: no match with ours.
    expect(wouldMeet(restingHome(), away, -105)).toBe(false);
    // The same side of the book, or another book: never a match.
    expect(wouldMeet(restingHome(), { type: 'moneyline', team: 'home' }, -200)).toBe(false);
    expect(wouldMeet(restingHome({ selection: { type: 'spread', team: 'home', line: -1.5 } }), away, -200)).toBe(false);
    expect(
      wouldMeet(
        restingHome({ selection: { type: 'total', ou: 'over', line: 200.5 } }),
        { type: 'total', ou: 'under', line: 200.5 },
        -110,
      ),
    ).toBe(true);
    expect(
      wouldMeet(
        restingHome({ selection: { type: 'total', ou: 'over', line: 200.5 } }),
        { type: 'total', ou: 'under', line: 201.5 },
        -110,
      ),
    ).toBe(false);
  });

  it('the order manager refuses such an order (rule self-match) and sends the one that cannot meet ours', () => {
    const { market, orders, order, sent, own, clock } = setup();
    market.applySnapshot(
      moneylineGame({
        id: 'g',
        start: '2026-05-01T00:00:00.000Z',
        away: { id: id(1), longName: 'Away', shortName: 'AW' },
        home: { id: id(2), longName: 'Home', shortName: 'HO' },
        offers: [{ id: id(3), team: 'away', odds: -120, size: 50 }],
      }),
      0,
    );
    // Ours, its place answer still on the way: the price feed could not flag it ours yet.
    order('c1', 'pending-place', null);
    const take = (odds: number) => ({
      strategyId: 't',
      gameID: 'g',
      mode: 'active' as const,
      intents: [
        {
          key: `take${odds}`,
          selection: { type: 'moneyline', team: 'away' } as const,
          odds,
          size: 10,
          orderType: 'fillAndKill' as const,
        },
      ],
    });
    orders.cycle([take(-110)]);
    expect(orders.stats.riskRejected).toBe(1);
    expect(sent.places).toBe(0);
    orders.cycle([take(-105)]);
    expect(orders.stats.riskRejected).toBe(1);
    expect(sent.places).toBe(1);
    // Nothing left of ours there: nothing to meet (once the refused key's cooldown is over).
    own.amend('c1', { remaining: 0, filled: 50 }, clock.now(), 'test');
    clock.advance(10_000);
    orders.cycle([take(-110)]);
    expect(orders.stats.riskRejected).toBe(1);
    expect(sent.places).toBe(2);
  });

  it('nor an order of ours approved earlier in the same cycle', () => {
    const { market, orders, sent } = setup();
    market.applySnapshot(
      moneylineGame({
        id: 'g',
        start: '2026-05-01T00:00:00.000Z',
        away: { id: id(1), longName: 'Away', shortName: 'AW' },
        home: { id: id(2), longName: 'Home', shortName: 'HO' },
        offers: [{ id: id(3), team: 'away', odds: -120, size: 50 }],
      }),
      0,
    );
    orders.cycle([
      {
        strategyId: 'm',
        gameID: 'g',
        mode: 'active',
        intents: [{ key: 'rest', selection: { type: 'moneyline', team: 'home' }, odds: 110, size: 10 }],
      },
      {
        strategyId: 't',
        gameID: 'g',
        mode: 'active',
        intents: [
          {
            key: 'take',
            selection: { type: 'moneyline', team: 'away' },
            odds: -110,
            size: 10,
            orderType: 'fillAndKill',
          },
        ],
      },
    ]);
    expect(orders.stats.riskRejected).toBe(1);
    expect(sent.places).toBe(1);
  });
});

// Few lines, 0 and -0 and NaN among them, so that two selections often share a book.
const line = fc.constantFrom(0, -0, Number.NaN, 1.5, -1.5, 2.5, -2.5);
const team = fc.constantFrom<'home' | 'away'>('home', 'away');
const selection: fc.Arbitrary<Selection> = fc.oneof(
  team.map((t): Selection => ({ type: 'moneyline', team: t })),
  fc.tuple(team, line).map(([t, l]): Selection => ({ type: 'spread', team: t, line: l })),
  fc
    .tuple(fc.constantFrom<'over' | 'under'>('over', 'under'), line)
    .map(([ou, l]): Selection => ({ type: 'total', ou, line: l })),
  fc
    .tuple(fc.constantFrom<'home' | 'away' | 'draw'>('home', 'away', 'draw'), fc.boolean())
    .map(([outcome, yes]): Selection => ({ type: 'moneyline1x2', outcome, yes })),
);

describe('backsOtherSide', () => {
  test.prop([selection, selection], { numRuns: 2_000 })(
    'is the same book (book key) and the other side (side index)',
    (a, b) => {
      expect(backsOtherSide(a, b)).toBe(bookKeyOf(a) === bookKeyOf(b) && sideIndexOf(a) !== sideIndexOf(b));
    },
  );
});
