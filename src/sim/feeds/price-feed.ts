import type { WebSocket } from 'ws';
import type { EngineEvent, EngineGame, GameChange } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { renderBookOrder, type WireBookOrder } from '../render/book.ts';
import { renderGameUpdateGame, type WireGameUpdateGame } from '../rest/orderbook.ts';
import { FeedHub, malformedFrame, type FeedConnection } from './connections.ts';
import { GameBooks, type MainLines } from './main-lines.ts';
import { parsePriceClientFrame, PriceFilter, updateKey, type UpdateKey } from './subscriptions.ts';

/** `["orderUpdate", …]`: one side of one market, with the full current list of that side and line. */
export interface OrderUpdate extends MainLines {
  epoch: number;
  gameID: string;
  parentGameID: string | null;
  sport: string;
  league: string;
  live: boolean;
  type: string;
  participantID: string | null;
  market: string | null;
  side: string | null;
  OU?: 'over' | 'under' | null;
  total?: number | null;
  spread?: number | null;
  sideOrders: WireBookOrder[];
}

/** `["gameUpdate", …]`: the full game with its order collections (lined ones keyed by the line) and a message type. */
export type GameUpdate = WireGameUpdateGame & { messageType: 'marketOpen' | 'marketClosed' };

export interface MatchedVolumeUpdate {
  gameID: string;
  parentGameID: string | null;
  league: string;
  sport: string;
  matchedVolume: number;
}

export function messageTypeOf(change: GameChange): 'marketOpen' | 'marketClosed' {
  return change === 'ended' || change === 'regraded' || change === 'refunded' ? 'marketClosed' : 'marketOpen';
}

interface Subscriber {
  readonly conn: FeedConnection;
  readonly filter: PriceFilter;
}

/**
 * The price feed (`/price-stream`, feeds-and-semantics §2). Every engine change becomes
 * one message, serialised once and written to each subscriber whose filter matches.
 */
export class PriceFeed {
  readonly #ctx: SimContext;
  readonly #hub: FeedHub;
  readonly #subs = new Set<Subscriber>();
  readonly #games = new Map<string, GameBooks>();
  readonly #volumeDue = new Set<string>();
  #volumeQueued = false;
  #lastEpoch = 0;
  readonly #unsubscribe: () => void;
  /** Counters for benchmarks and tests. */
  readonly stats = { messages: 0, frames: 0 };

  constructor(ctx: SimContext, hub: FeedHub) {
    this.#ctx = ctx;
    this.#hub = hub;
    this.#unsubscribe = ctx.engine.onEvent((e) => {
      // A feed problem must never break the engine call that produced the event.
      try {
        this.#onEvent(e);
      } catch (err) {
        ctx.log.error({ err, event: e.kind }, 'price feed: event dropped');
      }
    });
  }

  get subscriberCount(): number {
    return this.#subs.size;
  }

  attach(ws: WebSocket, user: SimUser): void {
    let sub: Subscriber | undefined;
    const conn = this.#hub.add(ws, 'price', user.id, () => {
      if (sub) this.#subs.delete(sub);
    });
    if (!conn.isOpen) return;
    const filter = new PriceFilter(this.#ctx.settings.maxSubscriptionsPerConnection);
    sub = { conn, filter };
    this.#subs.add(sub);
    const refuse = (problem: string) => {
      this.#ctx.log.info({ userId: user.id, problem }, 'price feed: subscription refused');
      this.#hub.send(
        conn,
        JSON.stringify(['error', { error: problem, errorType: 'subscription_limit', limit: filter.maxIds }]),
      );
    };
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? null : rawToString(data);
      const parsed =
        text === null
          ? ({ ok: false, problem: 'binary frame', overLimit: false } as const)
          : parsePriceClientFrame(text, filter.maxIds);
      if (!parsed.ok) {
        if (parsed.overLimit) refuse(parsed.problem);
        else
          this.#ctx.log.info(
            { userId: user.id, problem: parsed.problem, frame: text?.slice(0, 200) },
            'price feed: client frame ignored',
          );
        return;
      }
      const refused = filter.apply(parsed.frame);
      if (refused !== null) {
        refuse(refused);
        return;
      }
      // Sizes only: a frame must cost the same whatever the subscription holds.
      this.#ctx.log.debug(
        { userId: user.id, all: filter.broadcastAll, ids: filter.size },
        'price feed subscription changed',
      );
    });
  }

  close(): void {
    this.#unsubscribe();
    this.#subs.clear();
    this.#games.clear();
  }

  #onEvent(e: EngineEvent): void {
    switch (e.kind) {
      case 'bookChanged':
        this.#bookChanged(e.gameID, e.bookKey, e.side);
        return;
      case 'gameChanged':
        this.#gameChanged(e.game, e.change);
        return;
      case 'fill':
        this.#volumeDue.add(e.fill.gameID);
        if (!this.#volumeQueued) {
          // Once per game per engine call: every event of a call is delivered synchronously,
          // so a microtask runs after the call (no timer involved).
          this.#volumeQueued = true;
          queueMicrotask(() => this.#flushVolumes());
        }
        return;
      default:
        return;
    }
  }

  #gameBooks(game: EngineGame): GameBooks {
    let g = this.#games.get(game.id);
    if (!g) this.#games.set(game.id, (g = new GameBooks(this.#ctx.engine, game.id, game)));
    return g;
  }

  #bookChanged(gameID: string, bookKey: string, side: 0 | 1): void {
    const engine = this.#ctx.engine;
    const game = engine.game(gameID);
    if (!game) return;
    const books = this.#gameBooks(game);
    const book = books.book(game, bookKey);
    if (!book) return;
    if (this.#subs.size === 0) {
      books.invalidate(book, side);
      return;
    }
    const listed = engine.bookSide(gameID, bookKey, side);
    books.update(book, side, listed);
    const key = updateKey(game);
    if (!this.#anyMatch(key)) return;

    const label = book.labels[side];
    const sideOrders: WireBookOrder[] = new Array<WireBookOrder>(listed.length);
    for (let i = 0; i < listed.length; i++) sideOrders[i] = renderBookOrder(game, label, listed[i]!);
    const main = books.mainLines();
    const is1x2 = book.selections[side].type === 'moneyline1x2';
    const payload: OrderUpdate = {
      epoch: this.#nextEpoch(),
      gameID: game.id,
      parentGameID: game.parentGameID,
      sport: game.sport,
      league: game.league,
      live: game.live,
      type: book.selections[side].type,
      participantID: label.participantID,
      market: label.market ?? null,
      side: label.side ?? null,
      ...(is1x2 ? {} : { OU: label.OU ?? null, total: label.total ?? null, spread: label.spread ?? null }),
      mainHomeSpread: main.mainHomeSpread,
      mainAwaySpread: main.mainAwaySpread,
      mainTotal: main.mainTotal,
      sideOrders,
    };
    this.#broadcast(key, JSON.stringify(['orderUpdate', payload]));
  }

  #gameChanged(game: EngineGame, change: GameChange): void {
    if (change === 'ended' || change === 'refunded' || change === 'regraded') {
      // The game's books are empty from now on; drop the cache after this message.
      this.#games.delete(game.id);
    }
    if (this.#subs.size === 0) return;
    const key = updateKey(game);
    if (!this.#anyMatch(key)) return;
    // The full game as the v2 orderbook renders it (per-market collections, best price
    // first, main lines, open interest, matched volume) with the spread and total
    // collections keyed by the line (feeds §8), plus the message type.
    const payload: GameUpdate = { ...renderGameUpdateGame(this.#ctx.engine, game), messageType: messageTypeOf(change) };
    this.#broadcast(key, JSON.stringify(['gameUpdate', payload]));
  }

  #flushVolumes(): void {
    this.#volumeQueued = false;
    const due = [...this.#volumeDue];
    this.#volumeDue.clear();
    if (this.#subs.size === 0) return;
    for (const gameID of due) {
      const game = this.#ctx.engine.game(gameID);
      if (!game) continue;
      const key = updateKey(game);
      if (!this.#anyMatch(key)) continue;
      const payload: MatchedVolumeUpdate = {
        gameID: game.id,
        parentGameID: game.parentGameID,
        league: game.league,
        sport: game.sport,
        matchedVolume: this.#ctx.engine.matchedVolume(game.id),
      };
      this.#broadcast(key, JSON.stringify(['matchedVolumeUpdate', payload]));
    }
  }

  /** Strictly increasing per server: µs of the clock, bumped when two updates share one. */
  #nextEpoch(): number {
    const candidate = this.#ctx.time.clock.now() * 1000;
    this.#lastEpoch = candidate > this.#lastEpoch ? candidate : this.#lastEpoch + 1;
    return this.#lastEpoch;
  }

  #anyMatch(key: UpdateKey): boolean {
    for (const s of this.#subs) if (s.filter.matches(key)) return true;
    return false;
  }

  /** One serialisation, one UTF-8 encoding, the same bytes to every matching subscriber. */
  #broadcast(key: UpdateKey, text: string): void {
    this.stats.messages++;
    let bytes: Buffer | null = null;
    for (const s of this.#subs) {
      if (!s.filter.matches(key)) continue;
      this.stats.frames++;
      if (this.#hub.corruptNext()) {
        this.#hub.send(s.conn, malformedFrame(text));
        continue;
      }
      bytes ??= Buffer.from(text, 'utf8');
      this.#hub.send(s.conn, bytes);
    }
  }
}

export function rawToString(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
