import { invertOdds } from '../odds/american.ts';
import { fillMoney, type FillMoney } from '../money/fill.ts';
import type { Position } from '../money/position.ts';
import type { IdToken, IdTokens } from './ids.ts';
import type { OrderState } from './order-state.ts';
import type { BetView, GradeVersion } from './types.ts';
import type { InternedSelection } from './wire.ts';

/** A bet as settlement sees it: its liability position plus what a grade names. */
export interface LedgerBet extends Position {
  readonly id: string;
  readonly txID: string;
  readonly userId: string;
  readonly gameID: string;
  readonly grade: GradeVersion | null;
}

// Numbers kept per fill. Ids are counters (see IdTokens), NaN where the id is a string.
const TX = 0;
const AT = 1; // matchedAt
const STAKE = 2; // the taker's stake
const RISK = 3; // what the maker put up against it
const RATE = 4; // the taker's commission rate
const MAKER_ODDS = 5; // the taker got their inverse
const MAKER_ORDER = 6;
const TAKER_ORDER = 7;
const MAKER_CREATED = 8;
const TAKER_CREATED = 9;
const POST_ARB = 10; // bit 0 the maker's order, bit 1 the taker's
const WIDTH = 11;
// References kept per bet: its user id and its interned selection.
const USER = 0;
const LINE = 1;
const REFS = 2;
const PAGE_FILLS = 4096;
/** What a released page holds: nothing (its fills are forgotten, so never read). */
const RELEASED_NUMBERS = new Float64Array(0);
const RELEASED_REFS: (string | InternedSelection)[] = [];

/**
 * Every matched bet, two per fill: bet 2f is the maker's side of fill f, 2f + 1 the
 * taker's. Bets live until settlement, so a fill is stored as a row of numbers (pages of
 * typed arrays, never copied to grow and never scanned by the garbage collector) and four
 * references to long-lived shared values (user ids, interned selections), copying what
 * the bets need from their orders rather than keeping the orders alive. Money, views and
 * liability positions are computed when read from the same inputs the place response
 * used (amount, odds, commission rate), so they are the same numbers.
 */
export class BetLedger {
  readonly #numbers: Float64Array[] = [];
  readonly #refs: (string | InternedSelection)[][] = [];
  /** Fills of each page forgotten so far: a page whose every fill is forgotten is released. */
  readonly #forgottenPerPage: number[] = [];
  #fills = 0;
  #liveFills = 0;
  /**
   * What rows cannot hold, by bet: ids that are not counters (a fill's bet ids are taken
   * right after its txID and an order's wagerRequestID right after its id, so counters
   * need no storage), user references, and grades, which exist only after settlement.
   */
  readonly #txStrings = new Map<number, string>();
  readonly #orderStrings = new Map<number, string>();
  readonly #requestIDs = new Map<number, IdToken>();
  readonly #betIds = new Map<number, IdToken>();
  readonly #userReferences = new Map<number, string>();
  readonly #grades = new Map<number, GradeVersion>();
  readonly #ids: IdTokens;

  constructor(ids: IdTokens) {
    this.#ids = ids;
  }

  /** Record a fill, taking its txID and bet ids; returns the maker's bet (the taker's is the next index). */
  record(
    maker: OrderState,
    makerRisk: number,
    taker: OrderState,
    stake: number,
    takerRate: number,
    at: number,
  ): number {
    const ids = this.#ids;
    const txID = ids.take();
    const makerBetId = ids.take();
    const takerBetId = ids.take();
    const fill = this.#fills++;
    const bet = 2 * fill;
    const page = Math.floor(fill / PAGE_FILLS);
    if (page === this.#numbers.length) {
      this.#numbers.push(new Float64Array(PAGE_FILLS * WIDTH));
      this.#refs.push(new Array<string | InternedSelection>(PAGE_FILLS * 2 * REFS).fill(''));
      this.#forgottenPerPage.push(0);
    }
    this.#liveFills++;
    const row = (fill % PAGE_FILLS) * WIDTH;
    const numbers = this.#numbers[page]!;
    numbers[row + TX] = this.#counter(txID, fill, this.#txStrings);
    if (typeof txID !== 'number' || makerBetId !== txID + 1 || takerBetId !== txID + 2) {
      this.#betIds.set(bet, makerBetId);
      this.#betIds.set(bet + 1, takerBetId);
    }
    numbers[row + AT] = at;
    numbers[row + STAKE] = stake;
    numbers[row + RISK] = makerRisk;
    numbers[row + RATE] = takerRate;
    numbers[row + MAKER_ODDS] = maker.odds;
    numbers[row + MAKER_ORDER] = this.#order(maker, bet);
    numbers[row + TAKER_ORDER] = this.#order(taker, bet + 1);
    numbers[row + MAKER_CREATED] = maker.createdAt;
    numbers[row + TAKER_CREATED] = taker.createdAt;
    numbers[row + POST_ARB] = (maker.orderType === 'postArb' ? 1 : 0) | (taker.orderType === 'postArb' ? 2 : 0);
    const refs = this.#refs[page]!;
    const refRow = (fill % PAGE_FILLS) * 2 * REFS;
    refs[refRow + USER] = maker.userId;
    refs[refRow + LINE] = maker.line;
    refs[refRow + REFS + USER] = taker.userId;
    refs[refRow + REFS + LINE] = taker.line;
    if (maker.userReference !== null) this.#userReferences.set(bet, maker.userReference);
    if (taker.userReference !== null) this.#userReferences.set(bet + 1, taker.userReference);
    return bet;
  }

  /** Fills recorded and not forgotten. */
  get liveFills(): number {
    return this.#liveFills;
  }

  /**
   * Forget a fill and its two bets (their game is gone): nothing may read them after. Their
   * references are cleared at once; a page's numbers go when its last fill is forgotten.
   */
  forget(fill: number): void {
    const bet = 2 * fill;
    for (const b of [bet, bet + 1]) {
      this.#orderStrings.delete(b);
      this.#requestIDs.delete(b);
      this.#betIds.delete(b);
      this.#userReferences.delete(b);
      this.#grades.delete(b);
    }
    this.#txStrings.delete(fill);
    const page = Math.floor(fill / PAGE_FILLS);
    this.#refs[page]!.fill('', (fill % PAGE_FILLS) * 2 * REFS, ((fill % PAGE_FILLS) + 1) * 2 * REFS);
    this.#liveFills--;
    if (++this.#forgottenPerPage[page]! === PAGE_FILLS) {
      this.#numbers[page] = RELEASED_NUMBERS;
      this.#refs[page] = RELEASED_REFS;
    }
  }

  /** A token as a row number, keeping strings aside. */
  #counter(token: IdToken, key: number, strings: Map<number, string>): number {
    if (typeof token === 'number') return token;
    strings.set(key, token);
    return Number.NaN;
  }

  #order(order: OrderState, bet: number): number {
    const id = this.#counter(order.id, bet, this.#orderStrings);
    if (typeof order.id !== 'number' || order.wagerRequestID !== order.id + 1)
      this.#requestIDs.set(bet, order.wagerRequestID);
    return id;
  }

  #number(bet: number, column: number): number {
    const fill = bet >>> 1;
    return this.#numbers[Math.floor(fill / PAGE_FILLS)]![(fill % PAGE_FILLS) * WIDTH + column]!;
  }

  /** The maker's or the taker's column, by the side of the bet. */
  #side(bet: number, makerColumn: number, takerColumn: number): number {
    return this.#number(bet, bet & 1 ? takerColumn : makerColumn);
  }

  #ref(bet: number, field: number): string | InternedSelection {
    const fill = bet >>> 1;
    return this.#refs[Math.floor(fill / PAGE_FILLS)]![(fill % PAGE_FILLS) * 2 * REFS + (bet & 1) * REFS + field]!;
  }

  #txToken(bet: number): IdToken {
    const n = this.#number(bet, TX);
    return Number.isNaN(n) ? this.#txStrings.get(bet >>> 1)! : n;
  }

  #orderToken(bet: number): IdToken {
    const n = this.#side(bet, MAKER_ORDER, TAKER_ORDER);
    return Number.isNaN(n) ? this.#orderStrings.get(bet)! : n;
  }

  txID(bet: number): string {
    return this.#ids.spell(this.#txToken(bet));
  }

  id(bet: number): string {
    const token = this.#betIds.get(bet) ?? (this.#txToken(bet) as number) + 1 + (bet & 1);
    return this.#ids.spell(token);
  }

  userId(bet: number): string {
    return this.#ref(bet, USER) as string;
  }

  #line(bet: number): InternedSelection {
    return this.#ref(bet, LINE) as InternedSelection;
  }

  grade(bet: number): GradeVersion | null {
    return this.#grades.get(bet) ?? null;
  }

  setGrade(bet: number, grade: GradeVersion): void {
    this.#grades.set(bet, grade);
  }

  /** Risk in the bet's own view: the taker's stake, or what the maker put up against it. */
  amount(bet: number): number {
    return this.#side(bet, RISK, STAKE);
  }

  /** The maker's own odds; the taker got the price the maker was listed at. */
  odds(bet: number): number {
    const odds = this.#number(bet, MAKER_ODDS);
    return bet & 1 ? invertOdds(odds) : odds;
  }

  /** Makers pay no commission. */
  commissionRate(bet: number): number {
    return bet & 1 ? this.#number(bet, RATE) : 0;
  }

  money(bet: number): FillMoney {
    return fillMoney(this.amount(bet), this.odds(bet), this.commissionRate(bet));
  }

  position(bet: number): Position {
    return {
      selection: this.#line(bet).selection,
      amount: this.amount(bet),
      odds: this.odds(bet),
      commissionRate: this.commissionRate(bet),
    };
  }

  bet(bet: number): LedgerBet {
    const line = this.#line(bet);
    return {
      id: this.id(bet),
      txID: this.txID(bet),
      userId: this.userId(bet),
      gameID: line.gameID,
      selection: line.selection,
      amount: this.amount(bet),
      odds: this.odds(bet),
      commissionRate: this.commissionRate(bet),
      grade: this.grade(bet),
    };
  }

  view(bet: number): BetView {
    const ids = this.#ids;
    const line = this.#line(bet);
    const order = this.#orderToken(bet);
    return {
      id: this.id(bet),
      txID: this.txID(bet),
      userId: this.userId(bet),
      orderID: ids.spell(order),
      wagerRequestID: ids.spell(this.#requestIDs.get(bet) ?? (order as number) + 1),
      gameID: line.gameID,
      selection: line.selection,
      wire: line.wire,
      money: this.money(bet),
      origin: bet & 1 ? 'wager' : 'offer',
      isPostArb: (this.#number(bet, POST_ARB) & (bet & 1 ? 2 : 1)) !== 0,
      userReference: this.#userReferences.get(bet) ?? null,
      createdAt: this.#side(bet, MAKER_CREATED, TAKER_CREATED),
      matchedAt: this.#number(bet, AT),
      grade: this.grade(bet),
    };
  }
}
