import type { SchedulerLike, Subscription } from 'rxjs';
import type { MatchingEngine } from '../engine/engine.ts';
import type { PlaceOutcome } from '../engine/types.ts';
import type { Clock } from '../shared/clock.ts';

/**
 * Drives the engine's due work (expiries, game starts, live-delayed orders) on the time
 * source's scheduler, and lets a request wait for its delayed orders' outcomes.
 */
export class EnginePump {
  #wake: Subscription | null = null;
  #wakeAt = Infinity;
  readonly #waiting = new Map<number, (outcome: PlaceOutcome) => void>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly engine: MatchingEngine,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerLike,
  ) {
    this.#unsubscribe = engine.onEvent((e) => {
      if (e.kind !== 'delayedExecuted') return;
      const resolve = this.#waiting.get(e.ticket);
      if (resolve) {
        this.#waiting.delete(e.ticket);
        resolve(e.outcome);
      }
    });
  }

  /** Re-arm the wake-up for the engine's next due time. Call after anything that may add timers. */
  kick(): void {
    const due = this.engine.nextDueAt();
    if (due === undefined) return;
    if (this.#wake && due >= this.#wakeAt) return;
    this.#wake?.unsubscribe();
    this.#wakeAt = due;
    this.#wake = this.scheduler.schedule(
      () => {
        this.#wake = null;
        this.#wakeAt = Infinity;
        this.engine.advance();
        this.kick();
      },
      Math.max(0, due - this.clock.now()),
    );
  }

  /** Resolves with the outcome of a delayed place once the engine runs it. */
  awaitTicket(ticket: number): Promise<PlaceOutcome> {
    const p = new Promise<PlaceOutcome>((resolve) => this.#waiting.set(ticket, resolve));
    this.kick();
    return p;
  }

  close(): void {
    this.#wake?.unsubscribe();
    this.#wake = null;
    this.#unsubscribe();
    for (const resolve of this.#waiting.values())
      resolve({ status: 'error', error: 'simulator shutting down', errorType: 'system_error' });
    this.#waiting.clear();
  }
}
