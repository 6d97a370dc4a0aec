import type { ResolvedSide } from '../../market-model/side-labels.ts';
import type { GameState } from '../../market-model/types.ts';
import { MatchingEngine } from '../../engine/engine.ts';
import type {
  EditInput,
  EngineEvent,
  Fill,
  OrderView,
  PlaceEntry as EnginePlaceEntry,
  PlaceInput,
  PlaceOutcome,
} from '../../engine/types.ts';
import type { EditOutcome } from '../../sim/ops/edit.ts';
import { SIM_RETENTION_DEFAULTS } from '../../sim/context.ts';
import type { OrderbookGame } from '../../exchange/schemas/exchange.ts';
import type { Game } from '../../exchange/schemas/game.ts';
import type { OrderUpdate, PriceFeedEvent } from '../../exchange/schemas/price-feed.ts';
import { bookKeyOf, oppositeSelection, sideIndexOf, type Score, type Selection } from '../../markets/types.ts';
import { selectionFromWire, wireFromSelection } from '../../markets/wire-selection.ts';
import { invertOdds, oddsRank, payout } from '../../odds/american.ts';
import type { ManualTimeSource } from '../../shared/time.ts';
import { applyLevelFlows, type FillModelConfig, type QueuedOrder } from './queue-model.ts';
import { RecordedMarket, type SideFlows } from './recorded-market.ts';

/** The engine's user ids of the backtest: us, the recorded makers, the recorded takers. */
export const US = 'backtest';
const MARKET = 'recorded-market';
const FLOW = 'recorded-flow';

const EPS = 1e-9;
const UNLIMITED = 1e15;
const NONE: readonly string[] = [];
const NO_REACH: SideReach = { gameID: '', bookKey: '', side: 0, minRank: Infinity };

export interface ExecutionOptions {
  readonly time: ManualTimeSource;
  readonly fillModel: FillModelConfig;
  readonly balance: number;
  readonly commission: number;
  /** Every engine event that concerns our account, after the call that made it. */
  readonly onOwnEvent: (e: EngineEvent) => void;
  /**
   * What the exchange lists on a side changed through us: an order of ours joined, left or
   * was filled there, or we took recorded liquidity listed there. `taker` is what a taker
   * on that side backs.
   */
  readonly onListingChanged?: (gameID: string, bookKey: string, side: 0 | 1, taker: Selection) => void;
  /** The final outcome of each order of ours that reached the exchange. */
  readonly onPlaceOutcome?: (input: PlaceInput, outcome: PlaceOutcome) => void;
  /** The final outcome of each edit of ours that reached the exchange. */
  readonly onEditOutcome?: (input: EditInput, outcome: EditOutcome) => void;
  /** How long the exchange keeps a settled game; default the simulator's (SIM_RETENTION_DEFAULTS). */
  readonly settledGameRetention?: SettledGameRetention;
}

/** How long the exchange keeps a game after its latest settlement: whichever of the two limits comes first. */
export interface SettledGameRetention {
  readonly ms: number;
  /** Ended games kept at most: the one settled longest ago goes first. */
  readonly count: number;
}

export interface ExecutionStats {
  /** Recorded orders put into the engine for one of our crossing orders to meet. */
  mirrored: number;
  /** Recorded orders that crossed one of ours, so could not be put in (a crossed book). */
  mirrorRefused: number;
  /** Our resting orders filled by recorded takers, and the stake. */
  passiveFills: number;
  passiveStake: number;
  /** Recorded liquidity we took. */
  takenStake: number;
}

/** One of our resting orders: its queue record, and where it rests (one object per order). */
interface Resting extends QueuedOrder {
  readonly gameID: string;
  readonly bookKey: string;
  readonly listedSide: 0 | 1;
  readonly listedOdds: number;
}

/** Our resting orders on one game. */
interface RestingGame {
  count: number;
  /** Per book, our orders on each listed side, in the order they joined. */
  readonly books: Map<string, [Resting[], Resting[]]>;
}

/** The recorded side an order of ours could take from, and the worst price rank it accepts. */
interface SideReach {
  readonly gameID: string;
  readonly bookKey: string;
  readonly side: 0 | 1;
  readonly minRank: number;
}

interface Ticket extends SideReach {
  readonly at: number;
  readonly done: (outcome: PlaceOutcome) => void;
}

/**
 * The outcomes of one place batch as they become final; `done` gets them (and the caller's
 * `ctx`) once all are. A class, not a closure: a closure made per place is named anew on
 * every call under tsx.
 */
class PlaceBatch<C> {
  readonly #outcomes: PlaceOutcome[];
  #open: number;
  constructor(
    readonly inputs: readonly PlaceInput[],
    readonly done: (outcomes: PlaceOutcome[], ctx: C, inputs: readonly PlaceInput[]) => void,
    readonly ctx: C,
    readonly onOutcome: ((input: PlaceInput, outcome: PlaceOutcome) => void) | undefined,
  ) {
    this.#outcomes = new Array<PlaceOutcome>(inputs.length);
    this.#open = inputs.length;
  }

  finish(i: number, o: PlaceOutcome): void {
    this.#outcomes[i] = o;
    this.onOutcome?.(this.inputs[i]!, o);
    if (--this.#open === 0) this.done(this.#outcomes, this.ctx, this.inputs);
  }
}

const sameSide = (a: SideReach, b: SideReach): boolean =>
  a.side === b.side && a.bookKey === b.bookKey && a.gameID === b.gameID;

/**
 * The exchange of a backtest: our orders in the engine replica, against the recorded market.
 * The engine holds only our orders. When one of ours could cross, the recorded orders it
 * could meet are put into the engine just for that instant, so the engine's own rules
 * decide (order types, postArb band, fillOrKill, live delay, liability, commission), and
 * what we took is gone from the recorded book for us. Our resting orders fill from the
 * recorded takers' volume through the queue model, as takes by a recorded taker, so money
 * and positions again come from the engine.
 */
export class BacktestExecution {
  readonly engine: MatchingEngine;
  /** Flows are built only for games where ours rest: nothing else reads them. */
  readonly recorded = new RecordedMarket({ flowsWanted: (gameID) => this.hasRestingOn(gameID) });
  readonly stats: ExecutionStats = { mirrored: 0, mirrorRefused: 0, passiveFills: 0, passiveStake: 0, takenStake: 0 };
  readonly #o: ExecutionOptions;
  readonly #resting = new Map<string, Resting>();
  /**
   * Per game, our resting orders: how many (most recorded updates meet none of ours) and,
   * per book, a list per listed side, found with no key spelt and hashed. Kept while the
   * game lasts, empty or not: an order placed and cancelled makes and drops no entries.
   */
  readonly #restingByGame = new Map<string, RestingGame>();
  readonly #mirrors = new Map<string, string>(); // engine order id → recorded order id
  readonly #tickets = new Map<number, Ticket>();
  readonly #ended = new Set<string>();
  readonly #snapshots = new Map<string, OrderbookGame>();
  /** Games the engine forgot that the venue has not let go of yet (`takeForgottenGames`). */
  #forgotten: string[] = [];
  /** Every game the engine forgot: each was settled first. */
  readonly #forgottenIds = new Set<string>();
  #seq = 0;
  #armedAt: number | null = null;
  /**
   * The input whose selection was read last in this place call, and that selection: the
   * report's outcome note reads it again in the same call. Cleared when the call ends.
   */
  #selectionInput: PlaceInput | null = null;
  #selection: Selection | null = null;

  constructor(o: ExecutionOptions) {
    this.#o = o;
    // Closed orders and settled games kept as the simulator keeps them: a replay of a long
    // recording holds the few thousand orders of the last minutes and the games settled in
    // the last hours, not every order it ever placed nor every game it ever saw.
    this.engine = new MatchingEngine({
      clock: o.time.clock,
      closedOrderRetentionMs: SIM_RETENTION_DEFAULTS.closedOrderRetentionMs,
      closedOrderRetentionCount: SIM_RETENTION_DEFAULTS.closedOrderRetentionCount,
      settledGameRetentionMs: o.settledGameRetention?.ms ?? SIM_RETENTION_DEFAULTS.settledGameRetentionMs,
      settledGameRetentionCount: o.settledGameRetention?.count ?? SIM_RETENTION_DEFAULTS.settledGameRetentionCount,
      onGameForgotten: (gameID) => {
        this.#forgotten.push(gameID);
        this.#forgottenIds.add(gameID);
      },
    });
    this.engine.addUser({ id: US, balance: o.balance, commissionRate: o.commission });
    this.engine.addUser({ id: MARKET, balance: UNLIMITED, commissionRate: 0 });
    this.engine.addUser({ id: FLOW, balance: UNLIMITED, commissionRate: 0 });
    this.engine.onEvent((e) => this.#onEngineEvent(e));
  }

  /** Whether the engine forgot games the venue still keeps state for. */
  get hasForgottenGames(): boolean {
    return this.#forgotten.length > 0;
  }

  /** The games the engine forgot since the last call: the venue lets go of each (`forgetGame`). */
  takeForgottenGames(): readonly string[] {
    const games = this.#forgotten;
    this.#forgotten = [];
    return games;
  }

  /** A game the engine forgot leaves the recorded market and the execution's records. */
  forgetGame(gameID: string): void {
    this.#snapshots.delete(gameID);
    this.#forgetResting(gameID);
    this.recorded.forgetGame(gameID);
  }

  /** Whether the engine settled the game: it forgets a game only hours after that. */
  gameSettled(gameID: string): boolean {
    return this.engine.game(gameID)?.ended ?? this.#forgottenIds.has(gameID);
  }

  /** The latest recorded snapshot of each game: the account's first view of the board. */
  snapshots(): OrderbookGame[] {
    return [...this.#snapshots.values()];
  }

  game(id: string): GameState | undefined {
    return this.recorded.game(id);
  }

  // ------------------------------------------------------------ the recorded market

  applySnapshot(g: OrderbookGame, t: number): void {
    this.#settleVanished(t);
    this.#snapshots.set(g.id, g);
    const known = this.recorded.has(g.id);
    this.recorded.applySnapshot(g, t);
    this.#ensureGame(g, g.live === true);
    // A snapshot after a reconnect replaces sides wholesale: what is ahead of us is capped to what is there.
    if (known) for (const r of this.#resting.values()) if (r.gameID === g.id) this.#capFront(r);
  }

  applyPrice(e: PriceFeedEvent, t: number): void {
    if (e.type === 'orderUpdate') {
      this.applyOrderUpdate(e.payload, t);
      return;
    }
    this.#settleVanished(t);
    switch (e.type) {
      case 'matchedVolumeUpdate':
        for (const f of this.recorded.applyMatchedVolume(e.payload, t)) this.#applyFlows(f);
        return;
      case 'gameUpdate': {
        const ended = e.payload.ended === true || e.messageType === 'marketClosed';
        this.recorded.upsertGame(e.payload, t, ended);
        this.#ensureGame(e.payload, e.payload.live === true);
        if (ended) this.#endGame(e.payload.id);
        return;
      }
    }
  }

  /**
   * A recorded side update; returns the side its label names (null: unknown game or label).
   * The bot's feed needs that side too, stale update or not, and the label is read once.
   */
  applyOrderUpdate(u: OrderUpdate, t: number): ResolvedSide | null {
    this.#settleVanished(t);
    const side = this.recorded.resolveSide(u);
    const flows = this.recorded.applyOrderUpdate(u, t, side);
    if (u.live === true) this.#goLive(u.gameID);
    if (flows) this.#applyFlows(flows);
    return side;
  }

  /** The recorded final score: our bets on the game are graded by the engine. */
  settle(gameID: string, score: Score): void {
    if (!this.engine.game(gameID)) return;
    this.#ended.add(gameID);
    this.engine.settleGame(gameID, score);
    this.#forgetResting(gameID);
    this.#arm();
  }

  /** Before anything at `t`: orders that vanished earlier without matching volume were cancels. */
  #settleVanished(t: number): void {
    for (const f of this.recorded.settle(t)) this.#applyFlows(f);
  }

  #ensureGame(g: Game, live: boolean): void {
    if (this.engine.game(g.id)) {
      if (live) this.#goLive(g.id);
      return;
    }
    // Ended and since forgotten by the engine: a late message about it does not open it again.
    if (this.#ended.has(g.id)) return;
    const away = g.participants.find((p) => p.homeAway === 'away') ?? g.participants[0]!;
    const home = g.participants.find((p) => p.homeAway === 'home') ?? g.participants[1]!;
    const start = g.start ? Date.parse(g.start) : this.#o.time.clock.now();
    this.engine.addGame({
      id: g.id,
      parentGameID: g.parentGameID ?? null,
      league: g.league,
      sport: g.sport,
      participants: [
        { id: away.id, longName: away.longName, shortName: away.shortName },
        { id: home.id, longName: home.longName, shortName: home.shortName },
      ],
      start: Number.isFinite(start) ? start : this.#o.time.clock.now(),
      live,
    });
    this.#arm();
  }

  #goLive(gameID: string): void {
    const g = this.engine.game(gameID);
    if (!g || g.live || g.ended) return;
    this.engine.updateGame(gameID, { live: true });
    this.#arm();
  }

  #endGame(gameID: string): void {
    if (this.#ended.has(gameID)) return;
    this.#ended.add(gameID);
    this.engine.cancelAll(US, { gameID: gameID }, 'gameEnded');
    this.#forgetResting(gameID);
    this.#arm();
  }

  // ------------------------------------------------------------ our orders

  /**
   * A batch of ours reaches the exchange. `done` gets the outcomes once every entry is final,
   * with `ctx` and the inputs: a caller's `done` made once finds its values there, not in a
   * closure made per batch.
   */
  place(inputs: readonly PlaceInput[], done: (outcomes: PlaceOutcome[]) => void): void;
  place<C>(
    inputs: readonly PlaceInput[],
    done: (outcomes: PlaceOutcome[], ctx: C, inputs: readonly PlaceInput[]) => void,
    ctx: C,
  ): void;
  place<C>(
    inputs: readonly PlaceInput[],
    done: (outcomes: PlaceOutcome[], ctx: C, inputs: readonly PlaceInput[]) => void,
    ctx?: C,
  ): void {
    const n = inputs.length;
    if (n === 0) {
      done([], ctx as C, inputs);
      return this.#arm();
    }
    try {
      this.#placeBatch(inputs, done, ctx as C);
    } finally {
      this.#selectionInput = null;
      this.#selection = null;
    }
    this.#arm();
  }

  #placeBatch<C>(
    inputs: readonly PlaceInput[],
    done: (outcomes: PlaceOutcome[], ctx: C, inputs: readonly PlaceInput[]) => void,
    ctx: C,
  ): void {
    const n = inputs.length;
    // Plain loops and one reach per order: a batch is almost always one order, and every
    // array, closure and map spared here is spared on every place of a backtest.
    const sides = new Array<SideReach | null>(n);
    for (let i = 0; i < n; i++) sides[i] = this.#takeSide(inputs[i]!);
    const mirrors = n === 1 ? this.#mirrorOne(sides[0]!) : this.#mirrorSides(sides);
    const entries = new Array<EnginePlaceEntry>(n);
    for (let i = 0; i < n; i++) {
      const input = inputs[i]!;
      const gameID = typeof input.gameID === 'string' ? input.gameID : '';
      // The recording said the game closed; the engine only learns at settlement.
      entries[i] = this.#ended.has(gameID)
        ? { status: 'error', errorType: 'validation_error', error: 'game has ended' }
        : this.engine.place(US, [input])[0]!;
    }
    this.#unmirror(mirrors);
    const batch = new PlaceBatch(inputs, done, ctx, this.#o.onPlaceOutcome);
    for (let i = 0; i < n; i++) {
      const e = entries[i]!;
      if (e.status !== 'delayed') {
        batch.finish(i, e);
        continue;
      }
      // No recorded side to meet (cannot cross): the ticket runs against nothing mirrored.
      const s = sides[i] ?? NO_REACH;
      this.#tickets.set(e.ticket, {
        gameID: s.gameID,
        bookKey: s.bookKey,
        side: s.side,
        minRank: s.minRank,
        at: e.executeAt,
        done: (o) => batch.finish(i, o),
      });
    }
  }

  /** Whether the recording closed the game (or gave its result). */
  hasEnded(gameID: string): boolean {
    return this.#ended.has(gameID);
  }

  /** Whether any order of ours rests on the game. */
  hasRestingOn(gameID: string): boolean {
    return (this.#restingByGame.get(gameID)?.count ?? 0) > 0;
  }

  cancel(orderIDs: readonly string[]) {
    const out = this.engine.cancelMany(US, orderIDs);
    this.#arm();
    return out;
  }

  /** Cancel every open order of ours, or those of one game (the exchange's cancelAllOrders / cancelAllOrdersForGame). */
  cancelAll(gameID?: string) {
    const out = this.engine.cancelAll(US, gameID === undefined ? {} : { gameID: gameID });
    this.#arm();
    return out;
  }

  /**
   * An edit of ours reaches the exchange: the engine replica's edit, against the recorded
   * liquidity its new terms could meet, as a place's. `done` gets its final outcome (after
   * a live delay, when the edit crosses on a live game). The queue model follows what the
   * engine did: an amended order that kept its place keeps its place in the recorded queue
   * too; one that lost it joins behind everything at its new price; a replaced order
   * leaves, and its replacement joins as a new order.
   */
  edit(input: EditInput, done: (outcome: EditOutcome) => void): void;
  edit<C>(input: EditInput, done: (outcome: EditOutcome, ctx: C, input: EditInput) => void, ctx: C): void;
  edit<C>(input: EditInput, done: (outcome: EditOutcome, ctx: C, input: EditInput) => void, ctx?: C): void {
    const original = typeof input.sessionID === 'string' ? this.engine.order(input.sessionID) : undefined;
    if (original && original.userId === US && this.#ended.has(original.gameID)) {
      this.#finishEdit(
        input,
        original,
        { status: 'error', errorType: 'validation_error', error: 'game has ended' },
        done,
        ctx as C,
      );
      return;
    }
    const odds = typeof input.orderOdds === 'number' ? input.orderOdds : original?.odds;
    const reach: SideReach | null =
      original && original.userId === US && odds !== undefined
        ? {
            gameID: original.gameID,
            bookKey: original.bookKey,
            side: sideIndexOf(original.selection),
            minRank: oddsRank(odds),
          }
        : null;
    const mirrors = this.#mirrorOne(reach);
    const entry = this.engine.edit(US, input);
    this.#unmirror(mirrors);
    if (entry.status === 'delayed') {
      // The edit waits out the live delay; the order rests as it was meanwhile.
      const s = reach ?? NO_REACH;
      this.#tickets.set(entry.ticket, {
        gameID: s.gameID,
        bookKey: s.bookKey,
        side: s.side,
        minRank: s.minRank,
        at: entry.executeAt,
        done: (o) => this.#finishEdit(input, original, o, done, ctx as C),
      });
    } else this.#finishEdit(input, original, entry, done, ctx as C);
    this.#arm();
  }

  /** An edit's final outcome: the amended order's queue record, the report's note, then the caller's `done`. */
  #finishEdit<C>(
    input: EditInput,
    original: OrderView | undefined,
    o: PlaceOutcome | EditOutcome,
    done: (outcome: EditOutcome, ctx: C, input: EditInput) => void,
    ctx: C,
  ): void {
    // A success with its edit's summary is an edit's outcome as it is: no copy of it.
    const outcome: EditOutcome =
      o.status === 'error'
        ? o
        : o.edit
          ? (o as EditOutcome)
          : { status: 'error', error: 'edit could not execute', errorType: 'system_error' };
    if (original) this.#settleAmend(original.id, outcome);
    this.#o.onEditOutcome?.(input, outcome);
    done(outcome, ctx, input);
  }

  /** After an edit's outcome: the amended order's queue record as the engine left the order. */
  #settleAmend(id: string, outcome: EditOutcome): void {
    if (outcome.status !== 'ok' || outcome.edit.mode !== 'amended') return;
    const now = this.engine.order(id);
    const r = this.#resting.get(id);
    if (outcome.edit.queue === 'kept' && r && now?.status === 'open') {
      r.capacity = now.remaining * payout(now.odds);
      return;
    }
    this.#leave(id);
    if (now?.status === 'open') this.#join(now);
  }

  /** What an order backs, as its wire fields name it on its game (null when they name nothing). */
  selectionOf(input: PlaceInput): Selection | null {
    if (input === this.#selectionInput) return this.#selection;
    const participants = this.recorded.participants(typeof input.gameID === 'string' ? input.gameID : '');
    if (!participants || typeof input.type !== 'string' || typeof input.side !== 'string') return null;
    return selectionFromWire(participants, {
      type: input.type,
      side: input.side,
      number: typeof input.number === 'number' ? input.number : null,
      market: typeof input.market === 'string' ? input.market : null,
    });
  }

  #takeSide(input: PlaceInput): SideReach | null {
    if (typeof input.odds !== 'number') return null;
    const sel = this.selectionOf(input);
    this.#selectionInput = input;
    this.#selection = sel;
    if (!sel) return null;
    return {
      gameID: input.gameID as string,
      bookKey: bookKeyOf(sel),
      side: sideIndexOf(sel),
      minRank: oddsRank(input.odds as number),
    };
  }

  /**
   * Mirror what the orders of one instant could meet, each side once, as far as its most
   * aggressive order reaches: a side mirrored once per order would list its recorded
   * liquidity as many times, and two of our orders could take twice what was there.
   */
  #mirrorSides(reach: Iterable<SideReach | null>): string[] {
    // The sides in the order each first comes, each with its most aggressive reach (the first
    // of equals): a batch names a few sides, found by a look along them, with no key spelt.
    const sides: SideReach[] = [];
    for (const r of reach) {
      if (!r) continue;
      let i = 0;
      while (i < sides.length && !sameSide(sides[i]!, r)) i++;
      if (i === sides.length) sides.push(r);
      else if (r.minRank < sides[i]!.minRank) sides[i] = r;
    }
    const ids: string[] = [];
    for (const r of sides) this.#mirror(r.gameID, r.bookKey, r.side, r.minRank, ids);
    return ids;
  }

  /** #mirrorSides of one order's reach: no map to dedupe, and no array when nothing is mirrored (most orders rest). */
  #mirrorOne(r: SideReach | null): readonly string[] {
    if (!r) return NONE;
    const ids: string[] = [];
    this.#mirror(r.gameID, r.bookKey, r.side, r.minRank, ids);
    return ids.length === 0 ? NONE : ids;
  }

  /** Put the recorded orders of a side that an order at `minRank` could meet into the engine; their ids into `ids`. */
  #mirror(gameID: string, bookKey: string, side: 0 | 1, minRank: number, ids: string[]): void {
    const participants = this.recorded.participants(gameID);
    const listed = this.recorded.side(gameID, bookKey, side);
    if (!participants || !listed) return;
    // Most orders of ours rest without reaching the best recorded offer: no wire fields to spell then.
    let wire: ReturnType<typeof wireFromSelection> | undefined;
    for (const o of listed.offers) {
      if (oddsRank(o.odds) < minRank) break;
      const stake = this.recorded.available(o);
      if (stake <= EPS) continue;
      wire ??= wireFromSelection(participants, oppositeSelection(listed.taker));
      // What is due waits: a delayed order of ours due now must meet these, not run before they are in.
      const [entry] = this.engine.place(
        MARKET,
        [{ gameID, ...wire, odds: invertOdds(o.odds), bet: stake * payout(o.odds), orderType: 'post' }],
        { runDue: false },
      );
      if (entry?.status === 'ok' && entry.unmatched) {
        this.#mirrors.set(entry.unmatched.orderID, o.id);
        ids.push(entry.unmatched.orderID);
        this.stats.mirrored++;
      } else this.stats.mirrorRefused++;
    }
  }

  #unmirror(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.engine.cancelMany(MARKET, ids);
    for (const id of ids) this.#mirrors.delete(id);
  }

  // ------------------------------------------------------------ passive fills

  #applyFlows(f: SideFlows): void {
    if (f.flows.length === 0) return;
    const list = this.#restingByGame.get(f.gameID)?.books.get(f.bookKey)?.[f.side];
    if (!list || list.length === 0) return;
    const fills = applyLevelFlows(this.#o.fillModel, list, f.flows);
    for (let i = 0; i < fills.length; i++) {
      const { order, stake } = fills[i]!;
      const r = this.#resting.get(order.id);
      if (!r) continue;
      this.#takeFrom(r, stake);
    }
  }

  /** A recorded taker takes `stake` from one of our resting orders, at its price. */
  #takeFrom(r: Resting, stake: number): void {
    const participants = this.recorded.participants(r.gameID);
    const listed = this.recorded.side(r.gameID, r.bookKey, r.listedSide);
    if (!participants || !listed) return;
    const wire = wireFromSelection(participants, listed.taker);
    // Only our orders rest in the engine, so a fill-and-kill at our price meets ours, best first.
    const [entry] = this.engine.place(
      FLOW,
      [{ gameID: r.gameID, ...wire, odds: r.listedOdds, bet: stake, orderType: 'fillAndKill' }],
      { liveDelay: false },
    );
    if (entry?.status === 'ok') {
      this.stats.passiveFills += entry.matched.length;
      for (const m of entry.matched) this.stats.passiveStake += m.amount;
    }
    this.#arm();
  }

  #capFront(r: Resting): void {
    r.front = Math.min(r.front, this.recorded.levelSize(r.gameID, r.bookKey, r.listedSide, r.rank));
  }

  // ------------------------------------------------------------ engine events and time

  #onEngineEvent(e: EngineEvent): void {
    switch (e.kind) {
      case 'orderPlaced':
        // Only an edit's amend places an order again under its id; the engine says in the
        // edit's outcome whether it kept its place, so its queue record waits for that.
        if (e.order.userId === US && !this.#resting.has(e.order.id)) this.#join(e.order);
        break;
      case 'orderCancelled':
      case 'orderExpired':
        if (e.order.userId === US) this.#leave(e.order.id);
        break;
      case 'fill':
        this.#onFill(e.fill);
        break;
      case 'delayedExecuted': {
        const t = this.#tickets.get(e.ticket);
        if (t) {
          this.#tickets.delete(e.ticket);
          t.done(e.outcome);
        }
        break;
      }
      default:
        break;
    }
    if (this.#concernsUs(e)) this.#o.onOwnEvent(e);
    if (this.#o.onListingChanged) this.#listingOf(e, this.#o.onListingChanged);
  }

  /** The listed side an event of ours changed, if any: an order rests on the side opposite to what it backs. */
  #listingOf(e: EngineEvent, changed: NonNullable<ExecutionOptions['onListingChanged']>): void {
    let backed: Selection;
    let gameID: string;
    if (e.kind === 'orderPlaced' || e.kind === 'orderCancelled' || e.kind === 'orderExpired') {
      if (e.order.userId !== US) return;
      backed = e.order.selection;
      gameID = e.order.gameID;
    } else if (e.kind === 'fill' && (e.fill.maker.userId === US || e.fill.maker.userId === MARKET)) {
      backed = e.fill.maker.selection;
      gameID = e.fill.gameID;
    } else return;
    // Both sides of a book share its key: read it from the order's own selection, which
    // bookKeyOf has cached, not from the opposite one made here (a new key to cache each time).
    const taker = oppositeSelection(backed);
    changed(gameID, bookKeyOf(backed), sideIndexOf(taker), taker);
  }

  #concernsUs(e: EngineEvent): boolean {
    switch (e.kind) {
      case 'orderPlaced':
      case 'orderCancelled':
      case 'orderExpired':
        return e.order.userId === US;
      case 'fill':
        return e.fill.maker.userId === US || e.fill.taker.userId === US;
      case 'betGraded':
        return e.bet.userId === US;
      case 'delayedExecuted':
        return e.userId === US;
      case 'balanceChanged':
        return e.userId === US;
      default:
        return false;
    }
  }

  #join(o: OrderView): void {
    const listed = oppositeSelection(o.selection);
    const listedSide = sideIndexOf(listed);
    const listedOdds = invertOdds(o.odds);
    const rank = oddsRank(listedOdds);
    // Behind everything recorded at our price, and behind our own earlier orders there.
    const r: Resting = {
      id: o.id,
      rank,
      seq: ++this.#seq,
      front: this.recorded.levelSize(o.gameID, o.bookKey, listedSide, rank),
      capacity: o.remaining * payout(o.odds),
      gameID: o.gameID,
      bookKey: o.bookKey,
      listedSide,
      listedOdds,
    };
    this.#resting.set(o.id, r);
    let game = this.#restingByGame.get(o.gameID);
    if (!game) this.#restingByGame.set(o.gameID, (game = { count: 0, books: new Map() }));
    game.count++;
    let sides = game.books.get(o.bookKey);
    if (!sides) game.books.set(o.bookKey, (sides = [[], []]));
    sides[listedSide].push(r);
  }

  #leave(id: string): void {
    const r = this.#resting.get(id);
    if (!r) return;
    this.#resting.delete(id);
    const game = this.#restingByGame.get(r.gameID);
    if (!game) return;
    game.count--;
    const list = game.books.get(r.bookKey)?.[r.listedSide];
    if (!list) return;
    const i = list.indexOf(r);
    if (i < 0) return;
    // Moved down and popped: a splice would make an array of the removed one.
    for (let j = i + 1; j < list.length; j++) list[j - 1] = list[j]!;
    list.pop();
  }

  /** A game that ended keeps no record of our orders on it (none rests there any more). */
  #forgetResting(gameID: string): void {
    if ((this.#restingByGame.get(gameID)?.count ?? 0) === 0) this.#restingByGame.delete(gameID);
  }

  #onFill(f: Fill): void {
    if (f.maker.userId === MARKET) {
      const recordedId = this.#mirrors.get(f.maker.orderID);
      if (recordedId !== undefined) this.recorded.consume(recordedId, f.taker.money.amount, f.gameID);
      if (f.taker.userId === US) this.stats.takenStake += f.taker.money.amount;
      return;
    }
    if (f.maker.userId !== US) return;
    const after = f.makerOrderAfter;
    if (after.status !== 'open') this.#leave(after.id);
    else {
      const r = this.#resting.get(after.id);
      if (r) r.capacity = after.remaining * payout(after.odds);
    }
  }

  /** Keep one scheduler action at the engine's next due time (expiries, game starts, delayed orders). */
  #arm(): void {
    const due = this.engine.nextDueAt();
    if (due === undefined) return;
    if (this.#armedAt !== null && this.#armedAt <= due) return;
    this.#armedAt = due;
    const time = this.#o.time;
    time.scheduler.schedule(
      () => {
        if (this.#armedAt !== due) return;
        this.#armedAt = null;
        this.#runDue();
        this.#arm();
      },
      Math.max(0, due - time.clock.now()),
    );
  }

  #runDue(): void {
    const now = this.#o.time.clock.now();
    // A delayed order meets the book as it is when its wait ends.
    const mirrors = this.#mirrorSides([...this.#tickets.values()].filter((t) => t.at <= now));
    this.engine.advance();
    this.#unmirror(mirrors);
  }
}
