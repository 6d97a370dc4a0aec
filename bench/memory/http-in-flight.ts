import diagnostics from 'node:diagnostics_channel';

const CHANNELS = {
  create: 'undici:request:create',
  done: 'undici:request:trailers',
  error: 'undici:request:error',
} as const;

/**
 * Counts undici requests of this process between being sent and being answered (or
 * failing), from undici's diagnostics channels. A virtual-time driver waits for zero
 * before moving the clock, so REST answers land at the exchange time they would in real
 * time. A request still waiting for the client's request budget is not sent yet, so it is
 * not counted (the budget waits on the clock, which must move); one the server holds until
 * a later exchange time (a place with live-delayed orders) is counted, so the driver also
 * needs `changes` to tell a request in transit from one parked on the clock.
 */
export class HttpInFlight {
  #count = 0;
  #changes = 0;
  readonly #onCreate = () => {
    this.#count++;
    this.#changes++;
  };
  readonly #onDone = () => {
    this.#count = Math.max(0, this.#count - 1);
    this.#changes++;
  };

  constructor() {
    diagnostics.subscribe(CHANNELS.create, this.#onCreate);
    diagnostics.subscribe(CHANNELS.done, this.#onDone);
    diagnostics.subscribe(CHANNELS.error, this.#onDone);
  }

  /** Requests sent and not answered yet. */
  get count(): number {
    return this.#count;
  }

  /** Requests sent plus requests answered so far: moves whenever anything happens. */
  get changes(): number {
    return this.#changes;
  }

  close(): void {
    diagnostics.unsubscribe(CHANNELS.create, this.#onCreate);
    diagnostics.unsubscribe(CHANNELS.done, this.#onDone);
    diagnostics.unsubscribe(CHANNELS.error, this.#onDone);
  }
}
