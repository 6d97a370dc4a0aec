import type { WebSocket } from 'ws';
import type { EngineEvent } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { respond, type SimRequest, type SimResponse } from '../http/types.ts';
import { FeedHub, malformedFrame, type FeedConnection } from './connections.ts';
import { parseMessageId, UserFeedLog, type MessageId } from './user-feed-log.ts';
import { userFeedItems, userFeedMessage, type UserFeedItem, type UserFeedMessage } from './user-feed-messages.ts';

export type { UserFeedMessage, WireFeedMatched, WireFeedUnmatched } from './user-feed-messages.ts';

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
    this.log = new UserFeedLog(ctx.time.clock, () => ({
      count: ctx.settings.userFeedRetentionCount,
      ms: ctx.settings.userFeedRetentionMs,
    }));
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

  /** `GET /v2/user/messages?afterID=…[&beforeID=…]`; afterID is required (feeds §8). */
  replay(req: SimRequest): SimResponse {
    const user = req.user;
    if (!user) return respond.error(401, 'unauthorized');
    const afterText = req.query.get('afterID');
    const beforeText = req.query.get('beforeID');
    if (afterText === null || afterText === '') return respond.error(400, 'afterID is required');
    const after = parseMessageId(afterText);
    if (after === null) return respond.error(400, `invalid afterID: ${afterText.slice(0, 64)}`);
    let before: MessageId | null = null;
    if (beforeText !== null) {
      before = parseMessageId(beforeText);
      if (before === null) return respond.error(400, `invalid beforeID: ${beforeText.slice(0, 64)}`);
    }
    const r = this.log.replay(user.id, after, before);
    return respond.top(
      r.complete
        ? { status: 'success', messages: r.messages }
        : { status: 'cache_expired', availableMessages: r.messages },
    );
  }

  close(): void {
    this.#unsubscribe();
    this.#conns.clear();
  }

  #onEvent(e: EngineEvent): void {
    for (const item of userFeedItems(e)) this.#publish(item);
  }

  #publish(item: UserFeedItem): void {
    const userId = item.userId;
    const conns = this.#conns.get(userId);
    // An account that never logged in (the synthetic market's traders act in-process) has
    // no client that could replay its feed: its messages take ids but are neither built nor kept.
    if ((!conns || conns.size === 0) && !this.#ctx.tokens.everIssued(userId)) {
      this.log.pass(userId);
      return;
    }
    const game = this.#ctx.engine.game(item.gameID);
    const now = this.#ctx.time.clock.now();
    const message = this.log.append(userId, (messageID) => userFeedMessage(item, game, now, messageID));
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
