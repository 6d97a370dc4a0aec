import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { isObjectId } from '../../engine/ids.ts';
import type { CancelFilter, CancelOutcome } from '../../engine/types.ts';
import { isMarketType } from '../../markets/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';
import { heartbeatFor, isHeartbeatSeconds } from '../heartbeat.ts';
import { renderSocketCancel } from '../ops/cancel.ts';
import { placeBatch } from '../ops/place.ts';
import { MAIN_MARKET } from '../render/book.ts';
import { iso } from '../render/time.ts';
import type { FeedConnection, FeedHub } from './connections.ts';
import { rawToString } from './price-feed.ts';
import { LinesmithError } from '../../shared/errors.ts';

export type OrdersReply = { requestID?: unknown; data: unknown } | { requestID?: unknown; error: string };

type Payload = Record<string, unknown>;

/** A request on the orders socket the simulator answers with `{requestID, error}`. */
class RequestError extends LinesmithError {
  override readonly code = 'LS_ERR_SIM_ORDERS_REQUEST';
}

const isRecord = (x: unknown): x is Payload => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * The orders socket (`/orders/ws`, feeds-and-semantics §6): `[type, payload]` requests,
 * answered `{requestID, data}` or `{requestID, error}` with the payload's requestID.
 */
export class OrdersSocket {
  readonly #ctx: SimContext;
  readonly #hub: FeedHub;

  constructor(ctx: SimContext, hub: FeedHub) {
    this.#ctx = ctx;
    this.#hub = hub;
  }

  attach(ws: WebSocket, user: SimUser): void {
    const conn = this.#hub.add(ws, 'orders', user.id);
    if (!conn.isOpen) return;
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? null : rawToString(data);
      void this.#handle(conn, user, text).catch((err: unknown) => {
        this.#ctx.log.error({ err, userId: user.id }, 'orders socket: request failed');
      });
    });
  }

  /** Answer one frame; null when the frame is not worth an answer (not JSON). */
  async answer(user: SimUser, text: string | null): Promise<OrdersReply | null> {
    let frame: unknown;
    try {
      frame = text === null ? undefined : JSON.parse(text);
    } catch {
      frame = undefined;
    }
    if (frame === undefined) {
      this.#ctx.log.info(
        { userId: user.id, frame: text?.slice(0, 200) ?? '(binary)' },
        'orders socket: unparseable frame ignored',
      );
      return null;
    }
    const payload = Array.isArray(frame) ? frame[1] : frame;
    const given = isRecord(payload) ? payload.requestID : undefined;
    // A heartbeat without a requestID gets one from the server, echoed in its answer (feeds §8).
    const requestID = given === undefined && Array.isArray(frame) && frame[0] === 'heartbeat' ? randomUUID() : given;
    const reply = (body: { data: unknown } | { error: string }): OrdersReply =>
      requestID === undefined ? body : { requestID, ...body };
    if (!Array.isArray(frame) || typeof frame[0] !== 'string' || !isRecord(payload))
      return reply({ error: 'unknown request type' });
    try {
      switch (frame[0]) {
        case 'placeV3':
          return reply({ data: await this.#place(user, payload) });
        case 'cancelById':
          return reply({ data: this.#cancelById(user, payload) });
        case 'cancelMultiple':
          return reply({ data: this.#cancelMultiple(user, payload) });
        case 'cancelAllByGame':
          return reply({ data: this.#cancelAllByGame(user, payload) });
        case 'cancelAll':
          return reply({ data: this.#render(this.#ctx.engine.cancelAll(user.id, {}, 'user'), []) });
        case 'heartbeat':
          return reply({ data: this.#heartbeat(user, payload) });
        default:
          return reply({ error: 'unknown request type' });
      }
    } catch (e) {
      if (e instanceof RequestError) return reply({ error: e.message });
      throw e;
    } finally {
      this.#ctx.pump.kick();
    }
  }

  async #handle(conn: FeedConnection, user: SimUser, text: string | null): Promise<void> {
    const out = await this.answer(user, text);
    if (out !== null) this.#hub.send(conn, JSON.stringify(out));
  }

  async #place(user: SimUser, p: Payload): Promise<unknown[]> {
    const orders = p.orders;
    if (!Array.isArray(orders)) throw new RequestError('orders must be an array');
    if (orders.length > this.#ctx.settings.maxBatch)
      throw new RequestError(`too many orders: at most ${this.#ctx.settings.maxBatch} per request`);
    return placeBatch(this.#ctx, user, orders, 'socket');
  }

  #cancelById(user: SimUser, p: Payload): unknown[] {
    const id = p.orderId ?? p.orderID;
    const outcome = this.#ctx.engine.cancel(user.id, id);
    if (!outcome.success) throw new RequestError(this.#failureText(outcome));
    return [renderSocketCancel(this.#ctx, outcome, id)];
  }

  #cancelMultiple(user: SimUser, p: Payload): unknown[] {
    const ids = p.orderIDs ?? p.orderIds;
    if (!Array.isArray(ids)) throw new RequestError('orderIDs must be an array');
    if (ids.length > this.#ctx.settings.maxBatch)
      throw new RequestError(`too many order IDs: at most ${this.#ctx.settings.maxBatch} per request`);
    // As REST cancelMultiple: one malformed id fails the whole request.
    if (!ids.every(isObjectId)) throw new RequestError('invalid order ID format');
    return this.#render(this.#ctx.engine.cancelMany(user.id, ids), ids);
  }

  #cancelAllByGame(user: SimUser, p: Payload): unknown[] {
    const gameID = p.gameId ?? p.gameID;
    if (!isObjectId(gameID)) throw new RequestError('invalid game ID format');
    if (!this.#ctx.engine.game(gameID)) throw new RequestError('game not found');
    const filter: { -readonly [K in keyof CancelFilter]: CancelFilter[K] } = { gameID };
    if (p.type !== undefined && p.type !== null) {
      if (!isMarketType(p.type)) throw new RequestError(`invalid type: ${String(p.type).slice(0, 32)}`);
      filter.type = p.type;
    }
    if (p.side !== undefined && p.side !== null) {
      if (typeof p.side !== 'string') throw new RequestError('side must be a string');
      filter.side = p.side;
    }
    if (p.market !== undefined && p.market !== null) {
      if (typeof p.market !== 'string') throw new RequestError('market must be a string');
      if (p.market === MAIN_MARKET) return this.#cancelMain(user, filter);
      filter.market = p.market;
    }
    return this.#render(this.#ctx.engine.cancelAll(user.id, filter, 'user'), []);
  }

  /**
   * `market: "main"` (feeds §8): every non-1x2 order of the game, of the filter's type and
   * side. The engine's filter knows a 1x2 outcome only, so the orders are picked here; one
   * that closed before the cancel ran (it expired) was not open to cancel and is left out.
   */
  #cancelMain(user: SimUser, filter: CancelFilter): unknown[] {
    const ids: string[] = [];
    for (const o of this.#ctx.engine.openOrders(user.id)) {
      const w = o.wire;
      if (o.gameID !== filter.gameID || w.type === 'moneyline1x2') continue;
      if (
        (filter.type !== undefined && w.type !== filter.type) ||
        (filter.side !== undefined && w.side !== filter.side)
      )
        continue;
      ids.push(o.id);
    }
    return this.#render(
      this.#ctx.engine.cancelMany(user.id, ids).filter((o) => o.success),
      [],
    );
  }

  #heartbeat(user: SimUser, p: Payload): { type: 'heartbeatAck'; serverTime: string; timeoutSec: number } {
    const timeout = p.requestTimeout;
    if (!isHeartbeatSeconds(timeout)) throw new RequestError('Invalid heartbeat timeout');
    heartbeatFor(this.#ctx).arm(user.id, timeout);
    return { type: 'heartbeatAck', serverTime: iso(this.#ctx.time.clock.now()), timeoutSec: timeout };
  }

  #render(outcomes: readonly CancelOutcome[], requested: readonly unknown[]): Record<string, unknown>[] {
    return outcomes.map((o, i) =>
      o.success
        ? renderSocketCancel(this.#ctx, o, requested[i])
        : { ...renderSocketCancel(this.#ctx, o, requested[i]), description: this.#failureText(o) },
    );
  }

  /** The contract's whole-request messages; a filled order of a graded game is "already graded". */
  #failureText(o: Extract<CancelOutcome, { success: false }>): string {
    if (o.code === 'not_cancellable' && o.order?.status === 'filled' && this.#ctx.engine.game(o.order.gameID)?.ended)
      return 'order already graded';
    return o.reason;
  }
}
