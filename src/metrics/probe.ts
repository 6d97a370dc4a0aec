import type { PriceFeedEvent } from '../exchange/schemas/price-feed.ts';
import type { Clock } from '../shared/clock.ts';
import { epochAsTimeMs } from './epoch.ts';

export type FeedName = 'price' | 'user';

export interface ProbeOptions {
  /** The venue's clock, against which an event's epoch is read (the simulator's on paper). */
  readonly clock: Clock;
  /** How many times faster than wall time `clock` runs (paper speed; default 1): lag is reported in wall time. */
  readonly speed?: number;
  /** Monotonic wall milliseconds for measured durations (default `performance.now`). Measurement only. */
  readonly monotonic?: () => number;
  /** Receives each tick-to-order latency, in seconds. */
  readonly onTickToOrder?: (seconds: number) => void;
}

export interface FeedReading {
  /** Wall seconds since the last event of this feed; null before the first. */
  readonly idleSeconds: number | null;
  /** Wall seconds between the exchange's epoch and local receipt, from the latest event carrying a time-like epoch; null if none did. */
  readonly epochLagSeconds: number | null;
  readonly events: number;
}

interface FeedTrack {
  lastAt: number | null;
  epochLagMs: number | null;
  events: number;
}

/**
 * Measurement points around the runtime, fed by `instrumentVenue`: when each feed event
 * arrived, how old a price event was by its epoch, and the time from a price event entering
 * the runtime's loop to the first place or cancel that loop hands to the gateway
 * (tick-to-order). It only watches: nothing here feeds back into a decision.
 */
export class RuntimeProbe {
  readonly #clock: Clock;
  readonly #speed: number;
  readonly #monotonic: () => number;
  readonly #onTick: (seconds: number) => void;
  readonly #feeds: Record<FeedName, FeedTrack> = {
    price: { lastAt: null, epochLagMs: null, events: 0 },
    user: { lastAt: null, epochLagMs: null, events: 0 },
  };
  /** Start of the price event being dispatched, null once its first order was measured or outside dispatch. */
  #tickStart: number | null = null;
  #depth = 0;

  constructor(options: ProbeOptions) {
    this.#clock = options.clock;
    this.#speed = options.speed ?? 1;
    this.#monotonic = options.monotonic ?? (() => performance.now());
    this.#onTick = options.onTickToOrder ?? (() => {});
  }

  /** A monotonic wall-time reading in ms, the probe's own time base. */
  now(): number {
    return this.#monotonic();
  }

  /** A price event is about to enter the runtime's loop. Pair with `priceDone`. */
  priceIn(event: PriceFeedEvent): void {
    const at = this.#monotonic();
    const f = this.#feeds.price;
    f.lastAt = at;
    f.events++;
    if (event.type === 'orderUpdate' && typeof event.payload.epoch === 'number') {
      const now = this.#clock.now();
      const sent = epochAsTimeMs(event.payload.epoch, now);
      if (sent !== null) f.epochLagMs = Math.max(0, now - sent) / this.#speed;
    }
    if (this.#depth++ === 0) this.#tickStart = at;
  }

  /** The runtime's loop returned from the price event. */
  priceDone(): void {
    if (--this.#depth <= 0) {
      this.#depth = 0;
      this.#tickStart = null;
    }
  }

  userIn(): void {
    const f = this.#feeds.user;
    f.lastAt = this.#monotonic();
    f.events++;
  }

  /** A place or cancel is being handed to the gateway: the first one of a price event is its tick-to-order. */
  ordersSent(): void {
    if (this.#tickStart === null) return;
    const seconds = (this.#monotonic() - this.#tickStart) / 1000;
    this.#tickStart = null;
    this.#onTick(seconds);
  }

  feed(name: FeedName): FeedReading {
    const f = this.#feeds[name];
    return {
      idleSeconds: f.lastAt === null ? null : Math.max(0, this.#monotonic() - f.lastAt) / 1000,
      epochLagSeconds: f.epochLagMs === null ? null : f.epochLagMs / 1000,
      events: f.events,
    };
  }
}
