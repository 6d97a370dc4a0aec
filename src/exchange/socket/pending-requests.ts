import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import { SocketClosedError, SocketRequestError, SocketRequestTimeoutError } from '../errors.ts';
import { replyErrorText } from '../schemas/orders-socket.ts';
import { NOT_SENT, type NotSent } from '../../shared/errors.ts';

/**
 * The request never left: the socket was not open in time, or closed before the frame
 * was written. Unlike a lost answer, this is a known outcome (nothing happened), so a
 * place that fails this way is safe to decide afresh.
 */
export class RequestNotSentError extends SocketClosedError implements NotSent {
  readonly [NOT_SENT] = true as const;
  readonly sent = false as const;
}

interface Pending {
  readonly type: string;
  readonly resolve: (data: unknown) => void;
  readonly reject: (err: Error) => void;
  readonly timer: Subscription;
}

/** Requests waiting for their `{requestID, …}` answer, each with its own deadline on the scheduler. */
export class PendingRequests {
  readonly #pending = new Map<string, Pending>();

  constructor(private readonly scheduler: SchedulerLike) {}

  get size(): number {
    return this.#pending.size;
  }

  /** Settles with the answer's `data`, or rejects: SocketRequestError, SocketRequestTimeoutError, or what `fail` gives. */
  add(requestID: string, type: string, timeoutMs: number): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const t = timer(timeoutMs, this.scheduler).subscribe(() => {
        if (this.#pending.get(requestID)?.timer !== t) return;
        this.#pending.delete(requestID);
        reject(new SocketRequestTimeoutError(`${type}: no answer within ${timeoutMs} ms (request ${requestID})`));
      });
      this.#pending.set(requestID, { type, resolve, reject, timer: t });
    });
  }

  /** Settle from an answer; false when nothing waits for that id (a late answer after its timeout). */
  answer(requestID: string, reply: { readonly data?: unknown; readonly error?: unknown }): boolean {
    const p = this.#take(requestID);
    if (!p) return false;
    if (reply.error !== undefined) p.reject(new SocketRequestError(p.type, replyErrorText(reply.error)));
    else p.resolve(reply.data);
    return true;
  }

  fail(requestID: string, error: Error): void {
    this.#take(requestID)?.reject(error);
  }

  /** Reject everything waiting, e.g. when the connection that carried the requests went away. */
  failAll(error: (type: string) => Error): number {
    const all = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of all) {
      p.timer.unsubscribe();
      p.reject(error(p.type));
    }
    return all.length;
  }

  #take(requestID: string): Pending | undefined {
    const p = this.#pending.get(requestID);
    if (!p) return undefined;
    this.#pending.delete(requestID);
    p.timer.unsubscribe();
    return p;
  }
}
