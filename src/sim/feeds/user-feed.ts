import type { WebSocket } from 'ws';
import type { EngineEvent, Fill, FillSide, OrderView, WireSelection } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import { iso } from '../render/time.ts';
import { FeedHub, malformedFrame, type FeedConnection } from './connections.ts';
import { parseMessageId, UserFeedLog, type MessageId } from './user-feed-log.ts';

/** A fill from the receiver's perspective (feeds-and-semantics §5). */
export interface WireFeedMatched {
  txID: string;
  orderID: string;
  wagerRequestID: string;
  amount: number;
  risk: number;
  win: number;
  odds: number;
  type: string;
  side: string;
  number: number | null;
  market?: string;
  userReference: string | null;
  isPostArb?: true;
}

/** A resting order, maker view. */
export interface WireFeedUnmatched {
  orderID: string;
  wagerRequestID: string;
  filled: number;
  offered: number;
  remaining: number;
  odds: number;
  type: string;
  side: string;
  number: number | null;
  market?: string;
  userReference?: string;
  isPostArb?: true;
}

/** One user-feed message (one envelope per event). */
export interface UserFeedMessage {
  matched: WireFeedMatched | null;
  unmatched: WireFeedUnmatched | null;
  origin: 'offer' | 'wager';
  gameID: string;
  parentGameID: string | null;
  eventName: string;
  league: string;
  sport: string;
  live: boolean;
  start: string | null;
  awayRotationNumber: string | null;
  platform: string;
  createdAt: string;
  messageID: string;
}

export const USER_FEED_PLATFORM = 'api';

function withSelection<T extends object>(out: T, wire: WireSelection): T & { type: string; side: string; number: number | null; market?: string } {
  const o = out as T & { type: string; side: string; number: number | null; market?: string };
  o.type = wire.type;
  o.side = wire.side;
  o.number = wire.number;
  if (wire.market !== undefined) o.market = wire.market;
  return o;
}

function matchedOf(txID: string, s: FillSide, isPostArb: boolean): WireFeedMatched {
  const m = withSelection(
    { txID, orderID: s.orderId, wagerRequestID: s.wagerRequestID, amount: s.money.amount, risk: s.money.risk, win: s.money.win, odds: s.money.odds },
    s.wire,
  ) as WireFeedMatched;
  m.userReference = s.userReference;
  if (isPostArb) m.isPostArb = true;
  return m;
}

function unmatchedOf(o: OrderView, amounts: { filled: number; offered: number; remaining: number }): WireFeedUnmatched {
  const u = withSelection({ orderID: o.id, wagerRequestID: o.wagerRequestID, ...amounts, odds: o.odds }, o.wire) as WireFeedUnmatched;
  if (o.userReference !== null) u.userReference = o.userReference;
  if (o.isPostArb) u.isPostArb = true;
  return u;
}

/**
 * The user feed (`/v2/user`): one envelope per order event, to every connection of the
 * order's owner, and a per-user log for replay through `GET /v2/user/messages`.
 */
export class UserFeed {
  readonly #ctx: SimContext;
  readonly #hub: FeedHub;
  readonly #conns = new Map<string, Set<FeedConnection>>();
  readonly log: UserFeedLog<UserFeedMessage>;
  readonly #unsubscribe: () => void;

  constructor(ctx: SimContext, hub: FeedHub) {
    this.#ctx = ctx;
    this.#hub = hub;
    this.log = new UserFeedLog(ctx.time.clock, () => ({ count: ctx.settings.userFeedRetentionCount, ms: ctx.settings.userFeedRetentionMs }));
    this.#unsubscribe = ctx.engine.onEvent((e) => {
      // A feed problem must never break the engine call that produced the event.
      try {
        this.#onEvent(e);
      } catch (err) {
        ctx.log.error({ err, event: e.kind }, 'user feed: event dropped');
      }
    });
  }

  attach(ws: WebSocket, user: SimUser): void {
    let set = this.#conns.get(user.id);
    const conn = this.#hub.add(ws, 'user', user.id, () => {
      const s = this.#conns.get(user.id);
      s?.delete(conn);
      if (s && s.size === 0) this.#conns.delete(user.id);
    });
    if (!conn.isOpen) return;
    if (!set) this.#conns.set(user.id, (set = new Set()));
    set.add(conn);
    ws.on('message', () => this.#ctx.log.debug({ userId: user.id }, 'user feed: client frame ignored'));
  }

  /** `GET /v2/user/messages?afterID=…[&beforeID=…]`. */
  replay(req: SimRequest): SimResponse {
    const user = req.user;
    if (!user) return respond.error(401, 'unauthorized');
    const afterText = req.query.get('afterID');
    const beforeText = req.query.get('beforeID');
    let after: MessageId | null = { ms: 0, seq: 0 };
    if (afterText !== null) after = parseMessageId(afterText);
    if (after === null) return respond.error(400, `invalid afterID: ${String(afterText).slice(0, 64)}`);
    let before: MessageId | null = null;
    if (beforeText !== null) {
      before = parseMessageId(beforeText);
      if (before === null) return respond.error(400, `invalid beforeID: ${beforeText.slice(0, 64)}`);
    }
    const r = this.log.replay(user.id, after, before);
    return respond.top(r.complete ? { status: 'success', messages: r.messages } : { status: 'cache_expired', availableMessages: r.messages });
  }

  close(): void {
    this.#unsubscribe();
    this.#conns.clear();
  }

  #onEvent(e: EngineEvent): void {
    switch (e.kind) {
      case 'orderPlaced': {
        const o = e.order;
        // Placed: filled 0; offered the order's stake; remaining what rests (less when the
        // order took liquidity first), so offered − remaining is what matched so far.
        this.#publish(o.userId, o.gameId, null, unmatchedOf(o, { filled: 0, offered: o.bet, remaining: o.remaining }), 'offer');
        return;
      }
      case 'orderCancelled':
      case 'orderExpired': {
        const o = e.order;
        this.#publish(o.userId, o.gameId, null, unmatchedOf(o, { filled: o.filled, offered: 0, remaining: 0 }), 'offer');
        return;
      }
      case 'fill':
        this.#fill(e.fill);
        return;
      default:
        return;
    }
  }

  #fill(f: Fill): void {
    this.#publish(f.taker.userId, f.gameId, matchedOf(f.txID, f.taker, f.isPostArb), null, 'wager');
    const after = f.makerOrderAfter;
    this.#publish(
      f.maker.userId,
      f.gameId,
      matchedOf(f.txID, f.maker, after.isPostArb),
      // `filled` is what this event alone matched (the maker's risk, which is its amount).
      unmatchedOf(after, { filled: f.maker.money.amount, offered: after.bet, remaining: after.remaining }),
      'offer',
    );
  }

  #publish(userId: string, gameId: string, matched: WireFeedMatched | null, unmatched: WireFeedUnmatched | null, origin: 'offer' | 'wager'): void {
    const game = this.#ctx.engine.game(gameId);
    const now = this.#ctx.time.clock.now();
    const message = this.log.append(userId, (messageID) => ({
      matched,
      unmatched,
      origin,
      gameID: gameId,
      parentGameID: game?.parentGameID ?? null,
      eventName: game ? (game.eventName ?? `${game.participants[0].longName} @ ${game.participants[1].longName}`) : '',
      league: game?.league ?? '',
      sport: game?.sport ?? '',
      live: game?.live ?? false,
      start: game ? iso(game.start) : null,
      awayRotationNumber: game?.participants[0].rotationNumber ?? null,
      platform: USER_FEED_PLATFORM,
      createdAt: iso(now),
      messageID,
    }));
    const conns = this.#conns.get(userId);
    if (!conns || conns.size === 0) return;
    const text = JSON.stringify(message);
    let bytes: Buffer | null = null;
    for (const c of conns) {
      // A malformed frame stands in for the message; the log still holds the real one.
      if (this.#hub.corruptNext()) {
        this.#hub.send(c, malformedFrame(text));
        continue;
      }
      bytes ??= Buffer.from(text, 'utf8');
      this.#hub.send(c, bytes);
    }
  }
}
