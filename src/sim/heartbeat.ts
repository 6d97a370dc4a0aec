import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { SimContext } from './context.ts';

/** Heartbeat timeouts taken, REST and socket alike: whole seconds, more than 5, at most a day. */
export const HEARTBEAT_MIN_SECONDS = 6;
export const HEARTBEAT_MAX_SECONDS = 86_400;

export function isHeartbeatSeconds(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= HEARTBEAT_MIN_SECONDS && x <= HEARTBEAT_MAX_SECONDS;
}

interface Armed {
  readonly timeoutSec: number;
  readonly deadline: number;
  sub: Subscription | null;
}

/**
 * The dead man's switch of `POST /user/ordersHeartbeat` and the orders socket's
 * `heartbeat` (feeds-and-semantics §6): once armed, every heartbeat pushes the deadline
 * out by its timeout; if the deadline passes with no heartbeat, `onLapse` runs once for
 * the user (the simulator cancels every open order) and the switch is disarmed until the
 * next heartbeat. Timers run on the given scheduler, so a manual clock drives them.
 */
export class HeartbeatSwitch {
  readonly #armed = new Map<string, Armed>();
  #closed = false;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly onLapse: (userId: string) => void,
  ) {}

  /** Arm (or re-arm) the user's switch: it lapses `seconds` from now unless armed again. */
  arm(userId: string, seconds: number): { readonly timeoutSec: number; readonly deadline: number } {
    if (!(seconds > 0) || !Number.isFinite(seconds))
      throw new RangeError(`heartbeat timeout must be a positive number of seconds, got ${seconds}`);
    this.disarm(userId);
    const ms = seconds * 1000;
    const entry: Armed = { timeoutSec: seconds, deadline: this.scheduler.now() + ms, sub: null };
    if (this.#closed) return entry;
    this.#armed.set(userId, entry);
    entry.sub = timer(ms, this.scheduler).subscribe(() => {
      if (this.#armed.get(userId) !== entry) return;
      this.#armed.delete(userId);
      this.onLapse(userId);
    });
    return entry;
  }

  /** Stop watching the user (no cancel happens). */
  disarm(userId: string): boolean {
    const entry = this.#armed.get(userId);
    if (!entry) return false;
    this.#armed.delete(userId);
    entry.sub?.unsubscribe();
    return true;
  }

  /** The user's current deadline (ms since the epoch), if armed. */
  deadline(userId: string): number | undefined {
    return this.#armed.get(userId)?.deadline;
  }

  isArmed(userId: string): boolean {
    return this.#armed.has(userId);
  }

  /** Disarm everyone; later `arm` calls do nothing. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#armed.values()) entry.sub?.unsubscribe();
    this.#armed.clear();
  }
}

const switches = new WeakMap<SimContext, HeartbeatSwitch>();

/**
 * The one heartbeat switch of a simulator context, shared by the REST route and the orders
 * socket. A lapse cancels every open order of the account (close reason `heartbeat`).
 */
export function heartbeatFor(ctx: SimContext): HeartbeatSwitch {
  let hb = switches.get(ctx);
  if (!hb) {
    const made = new HeartbeatSwitch(ctx.time.scheduler, (userId) => {
      try {
        const outcomes = ctx.engine.cancelAll(userId, {}, 'heartbeat');
        ctx.pump.kick();
        const cancelled = outcomes.filter((o) => o.success).length;
        // A client that pulled its quotes and stopped heartbeating (every clean shutdown) lapses with nothing open: not news.
        if (cancelled > 0) ctx.log.info({ userId, cancelled }, 'heartbeat lapsed: open orders cancelled');
        else ctx.log.debug({ userId }, 'heartbeat lapsed with no open order: nothing cancelled');
      } catch (e) {
        ctx.log.error({ err: e, userId }, 'heartbeat lapse failed');
      }
    });
    switches.set(ctx, made);
    ctx.hooks.onClose.push(() => made.close());
    hb = made;
  }
  return hb;
}
