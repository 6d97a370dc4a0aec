/**
 * exchange-api §7.3: every place errorType row, the validation_error cases of §4.5, the
 * liability boundary, positional batches, and "no exception ever escapes".
 */
import { describe, it, expect, expectTypeOf } from 'vitest';
import { MatchingEngine } from '../../src/engine/engine.ts';
import { createIdGenerator } from '../../src/engine/ids.ts';
import type { PlaceEntry, PlaceFailure, PlaceErrorType, PlaceInput } from '../../src/engine/types.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import { G, SOCCER, AWAY, HOME, S_AWAY, S_HOME, ml, ok, fail } from '../support/engine-fixture.ts';

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const HOUR = 3_600_000;
const ENDED = 'aa0000000000000000000003';
const E_AWAY = 'bb0000000000000000000005';
const E_HOME = 'bb0000000000000000000006';
const UNKNOWN_GAME = 'aa00000000000000000000ff';

function newEngine() {
  const clock = new ManualClock(T0);
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(11) });
  engine.addUser({ id: 'maker', balance: 1_000_000, commissionRate: 0.01 });
  engine.addUser({ id: 'taker', balance: 1_000_000, commissionRate: 0.01 });
  const game = (id: string, away: string, home: string, sport: string, league: string) =>
    engine.addGame({
      id,
      league,
      sport,
      participants: [
        { id: away, longName: `Away ${id.slice(-1)}`, shortName: 'A' },
        { id: home, longName: `Home ${id.slice(-1)}`, shortName: 'H' },
      ],
      start: T0 + HOUR,
    });
  expect(game(G, AWAY, HOME, 'basketball', 'NBA').ok).toBe(true);
  expect(game(SOCCER, S_AWAY, S_HOME, 'soccer', 'EPL').ok).toBe(true);
  expect(game(ENDED, E_AWAY, E_HOME, 'hockey', 'NHL').ok).toBe(true);
  expect(engine.settleGame(ENDED, { away: 2, home: 3 }).ok).toBe(true);
  return { clock, engine };
}

const VALID: PlaceInput = ml('home', -110, 10);

function placeOne(engine: MatchingEngine, user: string, input: unknown): PlaceEntry {
  const out = engine.place(user, [input as PlaceInput]);
  expect(out).toHaveLength(1);
  return out[0]!;
}

function expectValidationError(engine: MatchingEngine, input: unknown, message?: string | RegExp): PlaceFailure {
  const f = fail(placeOne(engine, 'taker', input));
  expect(f.errorType).toBe('validation_error');
  expect(typeof f.error).toBe('string');
  expect(f.error.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(f.error).toBe(message);
  else if (message) expect(f.error).toMatch(message);
  return f;
}

/** Nothing was created by a rejected place. */
function expectUntouched(engine: MatchingEngine, user = 'taker') {
  expect(engine.openOrders(user)).toEqual([]);
  expect(engine.bets(user)).toEqual([]);
}

describe('§7.3 rejected_order_type_rules', () => {
  /** Maker backs away at +150 risking 100: home takers see -150 for up to 150. */
  function withLiquidity() {
    const ctx = newEngine();
    ok(placeOne(ctx.engine, 'maker', ml('away', 150, 100)));
    return ctx;
  }

  it('post order that would match', () => {
    const { engine } = withLiquidity();
    expect(fail(placeOne(engine, 'taker', ml('home', -150, 10, { orderType: 'post' })))).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'post order cannot have matches',
    });
    expectUntouched(engine);
  });

  it('fillAndKill with no liquidity', () => {
    const { engine } = newEngine();
    expect(fail(placeOne(engine, 'taker', ml('home', -150, 10, { orderType: 'fillAndKill' })))).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill and kill has no matches',
    });
    expectUntouched(engine);
  });

  it('fillOrKill with no liquidity', () => {
    const { engine } = newEngine();
    expect(fail(placeOne(engine, 'taker', ml('home', -150, 10, { orderType: 'fillOrKill' })))).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill or kill has no matches',
    });
    expectUntouched(engine);
  });

  it('fillOrKill partly matched with a residual above 10', () => {
    const { engine } = withLiquidity();
    expect(fail(placeOne(engine, 'taker', ml('home', -150, 160.01, { orderType: 'fillOrKill' })))).toEqual({
      status: 'error',
      errorType: 'rejected_order_type_rules',
      error: 'fill or kill matched but not fully',
    });
    expectUntouched(engine);
    expect(engine.bookSide(G, 'moneyline', 0)[0]!.sumUntaken).toBeCloseTo(150, 9);
  });

  it('postArb whose price differs by more than 1% from the resting order', () => {
    const { engine } = withLiquidity();
    // listed -150; 1% of 150 = 1.5; -152 is 2 away.
    const f = fail(placeOne(engine, 'taker', ml('home', -152, 10, { orderType: 'postArb' })));
    expect(f.errorType).toBe('rejected_order_type_rules');
    expect(f.error).toMatch(/postArb/);
    expectUntouched(engine);
    // 1 away is inside the band.
    expect(ok(placeOne(engine, 'taker', ml('home', -151, 10, { orderType: 'postArb' }))).matched).toHaveLength(1);
  });
});

describe('§7.3 validation_error', () => {
  it('unknown game: "game not found: invalid gameID"', () => {
    const { engine } = newEngine();
    expectValidationError(engine, { ...VALID, gameID: UNKNOWN_GAME }, 'game not found: invalid gameID');
  });

  it.each([
    ['too short', 'abc'],
    ['25 hex digits', 'aa00000000000000000000010'],
    ['non-hex', 'zz0000000000000000000001'],
    ['empty', ''],
    ['a number', 123],
    ['null', null],
    ['missing', undefined],
    ['an object', { id: G }],
  ])('malformed gameID (%s)', (_, gameID) => {
    const { engine } = newEngine();
    const f = expectValidationError(engine, { ...VALID, gameID });
    expect(f.error).not.toBe('game not found: invalid gameID');
  });

  it('ended game', () => {
    const { engine } = newEngine();
    expectValidationError(engine, { gameID: ENDED, type: 'moneyline', side: E_HOME, odds: 120, bet: 10 }, /ended/);
  });

  it.each([['parlay'], ['Moneyline'], [''], [null], [undefined], [7]])('unknown type %j', (type) => {
    const { engine } = newEngine();
    expectValidationError(engine, { ...VALID, type });
  });

  it('moneyline1x2 on a non-soccer game', () => {
    const { engine } = newEngine();
    expectValidationError(
      engine,
      { gameID: G, type: 'moneyline1x2', side: 'yes', market: HOME, odds: 120, bet: 10 },
      /moneyline1x2/,
    );
  });

  it('two-way moneyline on a soccer game (which offers moneyline1x2 instead)', () => {
    const { engine } = newEngine();
    expectValidationError(engine, { gameID: SOCCER, type: 'moneyline', side: S_HOME, odds: 120, bet: 10 });
    expect(
      ok(
        placeOne(engine, 'taker', {
          gameID: SOCCER,
          type: 'moneyline1x2',
          side: 'yes',
          market: 'draw',
          odds: 250,
          bet: 10,
        }),
      ).unmatched,
    ).not.toBeNull();
  });

  describe('bad side per market', () => {
    it.each([
      ['moneyline with over', { gameID: G, type: 'moneyline', side: 'over', odds: 120, bet: 10 }],
      ['moneyline with yes', { gameID: G, type: 'moneyline', side: 'yes', odds: 120, bet: 10 }],
      [
        'moneyline with a participant of another game',
        { gameID: G, type: 'moneyline', side: S_HOME, odds: 120, bet: 10 },
      ],
      ['moneyline without side', { gameID: G, type: 'moneyline', odds: 120, bet: 10 }],
      ['spread with under', { gameID: G, type: 'spread', side: 'under', number: 3.5, odds: 120, bet: 10 }],
      ['total with a participant id', { gameID: G, type: 'total', side: HOME, number: 210.5, odds: 120, bet: 10 }],
      ['total with OVER (case)', { gameID: G, type: 'total', side: 'OVER', number: 210.5, odds: 120, bet: 10 }],
      [
        '1x2 with a participant id as side',
        { gameID: SOCCER, type: 'moneyline1x2', side: S_HOME, market: S_HOME, odds: 120, bet: 10 },
      ],
      ['1x2 without market', { gameID: SOCCER, type: 'moneyline1x2', side: 'yes', odds: 120, bet: 10 }],
      [
        '1x2 with a foreign market',
        { gameID: SOCCER, type: 'moneyline1x2', side: 'no', market: HOME, odds: 120, bet: 10 },
      ],
    ])('%s', (_, input) => {
      const { engine } = newEngine();
      expectValidationError(engine, input, /side|market/);
      expectUntouched(engine);
    });
  });

  describe('odds', () => {
    it.each([
      [0],
      [50],
      [-50],
      [99],
      [-99],
      [100.5],
      [-110.5],
      [Number.NaN],
      [Number.POSITIVE_INFINITY],
      ['-110'],
      [null],
      [undefined],
      [[-110]],
    ])('rejects %j', (odds) => {
      const { engine } = newEngine();
      expectValidationError(engine, { ...VALID, odds }, /odds/);
    });

    it.each([[100], [-100], [101], [-101], [100000]])('accepts %j', (odds) => {
      const { engine } = newEngine();
      ok(placeOne(engine, 'taker', { ...VALID, odds }));
    });
  });

  describe('bet', () => {
    it.each([[0], [-0], [-5], [Number.NaN], [Number.POSITIVE_INFINITY], ['100'], [null], [undefined], [true], [2e9]])(
      'rejects %j',
      (bet) => {
        const { engine } = newEngine();
        expectValidationError(engine, { ...VALID, bet }, /bet/);
      },
    );

    it.each([[1e-9], [1e-10], [Number.MIN_VALUE]])(
      'rejects a dust stake %d that could neither fill nor rest',
      (bet) => {
        const { engine } = newEngine();
        ok(placeOne(engine, 'maker', ml('away', 110, 50)));
        expectValidationError(engine, { ...VALID, bet }, /bet/);
        expectValidationError(engine, { ...VALID, bet, odds: -200 }, /bet/); // would cross the maker
        expectUntouched(engine);
      },
    );

    it('accepts a fractional stake', () => {
      const { engine } = newEngine();
      expect(ok(placeOne(engine, 'taker', { ...VALID, bet: 0.01 })).unmatched?.offered).toBe(0.01);
    });
  });

  describe('spread and total numbers', () => {
    it.each([
      ['spread without number', { type: 'spread', side: HOME }],
      ['spread with null number', { type: 'spread', side: HOME, number: null }],
      ['spread with 3.3', { type: 'spread', side: HOME, number: 3.3 }],
      ['spread with 3.1', { type: 'spread', side: HOME, number: -3.1 }],
      ['spread with NaN', { type: 'spread', side: HOME, number: Number.NaN }],
      ['spread with a string number', { type: 'spread', side: HOME, number: '-3.5' }],
      ['total without number', { type: 'total', side: 'over' }],
      ['total with 209.3', { type: 'total', side: 'over', number: 209.3 }],
      ['total with a negative number', { type: 'total', side: 'under', number: -0.5 }],
      ['total with a string number', { type: 'total', side: 'under', number: '209.5' }],
      ['total with Infinity', { type: 'total', side: 'under', number: Number.POSITIVE_INFINITY }],
    ])('%s', (_, patch) => {
      const { engine } = newEngine();
      expectValidationError(engine, { gameID: G, odds: -110, bet: 10, ...patch }, /number|spread|total/);
    });

    it.each([[-3.5], [-3.25], [-3], [0], [0.75], [7.5]])('accepts spread %d', (number) => {
      const { engine } = newEngine();
      const u = ok(
        placeOne(engine, 'taker', { gameID: G, type: 'spread', side: HOME, number, odds: -110, bet: 10 }),
      ).unmatched!;
      expect(u.number).toBe(number);
    });

    it('a malformed number is rejected even right after a valid order on the same line', () => {
      const { engine } = newEngine();
      ok(placeOne(engine, 'taker', { gameID: G, type: 'spread', side: HOME, number: -3.5, odds: -110, bet: 10 }));
      ok(placeOne(engine, 'taker', { gameID: G, type: 'total', side: 'over', number: 209.5, odds: -110, bet: 10 }));
      expectValidationError(engine, { gameID: G, type: 'spread', side: HOME, number: '-3.5', odds: -110, bet: 10 });
      expectValidationError(engine, { gameID: G, type: 'total', side: 'over', number: '209.5', odds: -110, bet: 10 });
      expectValidationError(engine, { gameID: G, type: 'spread', side: [HOME], number: -3.5, odds: -110, bet: 10 });
      expectValidationError(engine, { gameID: G, type: 'total', side: ['over'], number: 209.5, odds: -110, bet: 10 });
      expect(engine.openOrders('taker')).toHaveLength(2);
    });

    it('a non-string side is rejected even right after a valid order with that side', () => {
      const { engine } = newEngine();
      ok(placeOne(engine, 'taker', VALID));
      expectValidationError(engine, { ...VALID, side: [HOME] }, /side/);
      expectValidationError(engine, { ...VALID, side: { toString: () => HOME } }, /side/);
      ok(
        placeOne(engine, 'taker', {
          gameID: SOCCER,
          type: 'moneyline1x2',
          side: 'yes',
          market: 'draw',
          odds: 250,
          bet: 10,
        }),
      );
      expectValidationError(
        engine,
        { gameID: SOCCER, type: 'moneyline1x2', side: 'yes', market: ['draw'], odds: 250, bet: 10 },
        /market/,
      );
    });
  });

  it.each([[0], [-1], ['5'], [Number.NaN], [Number.POSITIVE_INFINITY]])('expirationMinutes %j', (expirationMinutes) => {
    const { engine } = newEngine();
    expectValidationError(engine, { ...VALID, expirationMinutes }, /expirationMinutes/);
  });

  it.each([['market'], ['LIMIT'], [''], [1]])('unknown orderType %j', (orderType) => {
    const { engine } = newEngine();
    expectValidationError(engine, { ...VALID, orderType }, /orderType/);
  });

  it('userReference must be a string of bounded length', () => {
    const { engine } = newEngine();
    expectValidationError(engine, { ...VALID, userReference: 42 }, /userReference/);
    expectValidationError(engine, { ...VALID, userReference: 'x'.repeat(129) }, /userReference/);
    expect(ok(placeOne(engine, 'taker', { ...VALID, userReference: 'x'.repeat(128) })).unmatched?.userReference).toBe(
      'x'.repeat(128),
    );
  });

  it('unknown user: every entry fails', () => {
    const { engine } = newEngine();
    const out = engine.place('ghost', [VALID, { ...VALID, odds: 5 }]);
    expect(out).toEqual([
      { status: 'error', errorType: 'validation_error', error: 'unknown user' },
      { status: 'error', errorType: 'validation_error', error: 'unknown user' },
    ]);
    expect(engine.bookSide(G, 'moneyline', 1)).toEqual([]);
  });
});

describe('batches are positional', () => {
  it('one bad entry among good ones fails alone', () => {
    const { engine } = newEngine();
    const out = engine.place('taker', [
      ml('home', -110, 10, { userReference: 'a' }),
      { ...VALID, gameID: UNKNOWN_GAME },
      ml('away', 120, 20, { userReference: 'c' }),
      { ...VALID, odds: 99 },
      { gameID: G, type: 'total', side: 'over', number: 210.5, odds: -105, bet: 30 },
    ]);
    expect(out.map((e) => e.status)).toEqual(['ok', 'error', 'ok', 'error', 'ok']);
    expect(fail(out[1]).error).toBe('game not found: invalid gameID');
    expect(fail(out[3]).errorType).toBe('validation_error');
    expect(ok(out[0]).unmatched).toMatchObject({ userReference: 'a', offered: 10, side: HOME });
    expect(ok(out[2]).unmatched).toMatchObject({ userReference: 'c', offered: 20, side: AWAY });
    expect(ok(out[4]).unmatched).toMatchObject({ offered: 30, side: 'over', number: 210.5 });
    expect(engine.openOrders('taker')).toHaveLength(3);
  });

  it('entries see the effect of earlier entries of the same batch', () => {
    const { engine } = newEngine();
    // Both post orders would cross each other: the second is rejected.
    const out = engine.place('taker', [
      ml('home', 100, 10, { orderType: 'post' }),
      ml('away', 100, 10, { orderType: 'post' }),
    ]);
    expect(out.map((e) => e.status)).toEqual(['ok', 'error']);
    expect(fail(out[1]).error).toBe('post order cannot have matches');
  });

  it('an empty batch answers an empty array', () => {
    const { engine } = newEngine();
    expect(engine.place('taker', [])).toEqual([]);
  });
});

describe('§7.3 rejected_liability', () => {
  function withUser(balance: number, extra: { creditLimit?: number; commissionRate?: number } = {}) {
    const ctx = newEngine();
    expect(ctx.engine.addUser({ id: 'u', balance, commissionRate: 0.01, ...extra }).ok).toBe(true);
    return ctx;
  }
  const LIAB = { status: 'error', errorType: 'rejected_liability', error: 'Insufficient balance.' };

  it('exact boundary: a new order counts at stake × (1 + commission)', () => {
    const { engine } = withUser(101);
    expect(placeOne(engine, 'u', ml('home', 120, 100.01))).toEqual(LIAB);
    expectUntouched(engine, 'u');
    expect(ok(placeOne(engine, 'u', ml('home', 120, 100))).unmatched?.offered).toBe(100);
  });

  it('with no commission the boundary is the balance itself', () => {
    const { engine } = withUser(100, { commissionRate: 0 });
    expect(placeOne(engine, 'u', ml('home', -300, 100.01))).toEqual(LIAB);
    expect(ok(placeOne(engine, 'u', ml('home', -300, 100))).unmatched?.offered).toBe(100);
  });

  it('credit limit adds to the balance', () => {
    const { engine } = withUser(0, { creditLimit: 202 });
    expect(placeOne(engine, 'u', ml('home', 120, 200.01))).toEqual(LIAB);
    ok(placeOne(engine, 'u', ml('home', 120, 200)));
  });

  it('a negative balance with no credit rejects everything', () => {
    const { engine } = withUser(-1);
    expect(placeOne(engine, 'u', ml('home', 120, 0.01))).toEqual(LIAB);
  });

  it('postArb pays no taker commission, so it needs only the stake', () => {
    const { engine } = withUser(100);
    expect(placeOne(engine, 'u', ml('home', 120, 100))).toEqual(LIAB);
    ok(placeOne(engine, 'u', ml('home', 120, 100, { orderType: 'postArb' })));
  });

  it('resting orders count where they lose: hedging orders fit, same-side orders add up', () => {
    const { engine } = withUser(1000);
    ok(placeOne(engine, 'u', ml('home', 110, 600)));
    // Away loses only when home wins, where the home order does not lose: worst case 600.
    ok(placeOne(engine, 'u', ml('away', 110, 400)));
    // Another home order loses together with the first: 600 + 1.01·y ≤ 1000 ⇔ y ≤ 396.0396…
    expect(placeOne(engine, 'u', ml('home', 110, 396.05))).toEqual(LIAB);
    ok(placeOne(engine, 'u', ml('home', 110, 396.03)));
    expect(engine.account('u')!.exposure).toBeCloseTo(-996.03, 9);
    // Once resting, an order counts at its stake: 996.03 + 1.01·y ≤ 1000 ⇔ y ≤ 3.9306…
    expect(placeOne(engine, 'u', ml('home', 110, 3.94))).toEqual(LIAB);
    ok(placeOne(engine, 'u', ml('home', 110, 3.93)));
    expect(engine.account('u')!.exposure).toBeCloseTo(-999.96, 9);
  });

  it('matched bets count too; a settled game frees the balance', () => {
    const { engine } = withUser(202);
    ok(placeOne(engine, 'maker', ml('away', 100, 1000))); // home takers at +100
    const r = ok(placeOne(engine, 'u', ml('home', 100, 150)));
    expect(r.matched[0]!.risk).toBeCloseTo(151.5, 9);
    expect(engine.gameLiability('u', G)).toBeCloseTo(-151.5, 9);
    // 151.5 + 1.01·y ≤ 202 ⇔ y ≤ 50
    expect(placeOne(engine, 'u', ml('home', 100, 50.01))).toEqual(LIAB);
    ok(placeOne(engine, 'u', ml('home', 110, 50)));
    expect(engine.settleGame(G, { away: 0, home: 1 }).ok).toBe(true);
    expect(engine.account('u')!.balance).toBeCloseTo(202 + 148.5, 9);
    expect(engine.account('u')!.exposure).toBe(0);
  });

  it('order-type rules are checked before liability: a post that would cross is a rules error', () => {
    const { engine } = withUser(1);
    ok(placeOne(engine, 'maker', ml('away', 150, 100)));
    expect(fail(placeOne(engine, 'u', ml('home', -150, 500, { orderType: 'post' }))).errorType).toBe(
      'rejected_order_type_rules',
    );
    expect(placeOne(engine, 'u', ml('home', -150, 500))).toEqual(LIAB);
    expect(engine.bookSide(G, 'moneyline', 0)[0]!.sumUntaken).toBeCloseTo(150, 9);
  });
});

describe('§7.3 system_error', () => {
  it('is part of the errorType vocabulary', () => {
    expectTypeOf<'system_error'>().toExtend<PlaceErrorType>();
    expectTypeOf<PlaceErrorType>().toEqualTypeOf<
      'validation_error' | 'rejected_order_type_rules' | 'rejected_liability' | 'system_error'
    >();
  });

  it('is never used for ordinary rejections (the in-memory engine has no database to fail)', () => {
    const { engine } = newEngine();
    ok(placeOne(engine, 'maker', ml('away', 150, 100)));
    const out = engine.place('taker', [
      { ...VALID, odds: 5 },
      ml('home', -150, 10, { orderType: 'post' }),
      ml('home', -150, 1e8),
      ml('home', -150, 1000, { orderType: 'fillOrKill' }),
    ]);
    expect(out.map((e) => e.status === 'error' && e.errorType)).toEqual([
      'validation_error',
      'rejected_order_type_rules',
      'rejected_liability',
      'rejected_order_type_rules',
    ]);
  });
});

describe('no exception ever escapes place', () => {
  const nullProto = Object.create(null) as object;
  const throwingToString = {
    toString: () => {
      throw new Error('boom');
    },
  };
  const GARBAGE: unknown[] = [
    null,
    undefined,
    0,
    42,
    Number.NaN,
    '',
    'moneyline',
    true,
    [],
    [VALID],
    {},
    Symbol('order'),
    () => VALID,
    nullProto,
    { gameID: G },
    { gameID: G, type: 'moneyline' },
    { ...VALID, type: nullProto },
    { ...VALID, orderType: nullProto },
    { ...VALID, odds: nullProto },
    { ...VALID, bet: nullProto },
    { ...VALID, side: nullProto },
    { ...VALID, expirationMinutes: nullProto },
    { ...VALID, userReference: nullProto },
    { ...VALID, gameID: nullProto },
    { ...VALID, type: throwingToString },
    { ...VALID, side: throwingToString },
    { ...VALID, odds: Symbol('odds') },
    { ...VALID, type: Symbol('type') },
    { ...VALID, bet: 10n },
    { ...VALID, odds: -110n },
    { gameID: G, type: 'spread', side: HOME, number: nullProto, odds: -110, bet: 10 },
    { gameID: G, type: 'total', side: 'over', number: Symbol('n'), odds: -110, bet: 10 },
    { gameID: SOCCER, type: 'moneyline1x2', side: 'yes', market: nullProto, odds: 120, bet: 10 },
    { gameID: SOCCER, type: 'moneyline1x2', side: 'yes', market: throwingToString, odds: 120, bet: 10 },
  ];

  it('garbage entries each answer a validation_error, positionally', () => {
    const { engine } = newEngine();
    ok(placeOne(engine, 'taker', VALID)); // warm any caches with a valid order first
    let out: PlaceEntry[] = [];
    expect(() => {
      out = engine.place('taker', GARBAGE as PlaceInput[]);
    }).not.toThrow();
    expect(out).toHaveLength(GARBAGE.length);
    out.forEach((e, i) => {
      expect(e.status, `entry ${i}`).toBe('error');
      expect(e.status === 'error' && e.errorType, `entry ${i}`).toBe('validation_error');
    });
    expect(engine.openOrders('taker')).toHaveLength(1);
  });

  it('each garbage entry alone does not throw either', () => {
    const { engine } = newEngine();
    for (const g of GARBAGE) {
      expect(() => engine.place('taker', [g as PlaceInput])).not.toThrow();
    }
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', 'orders'],
    ['an object', { orders: [VALID] }],
    ['an array-like', { length: 1, 0: VALID }],
  ])('a non-array batch (%s) answers no entries', (_, inputs) => {
    const { engine } = newEngine();
    expect(engine.place('taker', inputs as unknown as PlaceInput[])).toEqual([]);
    expectUntouched(engine);
  });

  it('garbage user ids answer unknown user', () => {
    const { engine } = newEngine();
    for (const user of [null, undefined, 1, {}, '']) {
      expect(engine.place(user as unknown as string, [VALID])).toEqual([
        { status: 'error', errorType: 'validation_error', error: 'unknown user' },
      ]);
    }
  });

  it('fields a moneyline does not use are ignored, whatever they hold', () => {
    const { engine } = newEngine();
    const out = engine.place('taker', [
      { ...VALID, number: nullProto },
      { ...VALID, market: nullProto },
      { ...VALID, number: 'x', market: throwingToString },
    ]);
    expect(out.map((e) => e.status)).toEqual(['ok', 'ok', 'ok']);
    expect(out.map((e) => e.status === 'ok' && e.unmatched?.number)).toEqual([null, null, null]);
  });

  it('extreme but valid numbers do not throw', () => {
    const { engine } = newEngine();
    engine.addUser({ id: 'whale', balance: 1e12 });
    expect(() =>
      engine.place('whale', [
        { ...VALID, odds: Number.MAX_SAFE_INTEGER, bet: 1e9 },
        { ...VALID, side: AWAY, odds: -Number.MAX_SAFE_INTEGER, bet: 1e9 },
        { ...VALID, bet: Number.MIN_VALUE },
        { gameID: G, type: 'total', side: 'over', number: 100000, odds: 100, bet: 1 },
        { gameID: G, type: 'spread', side: HOME, number: -1000, odds: 100, bet: 1 },
      ]),
    ).not.toThrow();
  });

  it('cancel never throws on garbage ids', () => {
    const { engine } = newEngine();
    for (const id of [null, undefined, 1, {}, nullProto, Symbol('id'), 'not-an-id', 'AA0000000000000000000001']) {
      const c = engine.cancel('taker', id);
      expect(c.success).toBe(false);
    }
    expect(engine.cancelMany('taker', [null, 3, 'x']).map((c) => !c.success && c.code)).toEqual([
      'invalid_id',
      'invalid_id',
      'invalid_id',
    ]);
  });
});
