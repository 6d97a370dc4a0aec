/** Wall time in ms since the epoch. Domain code takes one of these instead of calling Date.now(). */
export interface Clock {
  now(): number;
}

/** The only place in domain-adjacent code that reads the system clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told: simulator manual mode, backtests and tests. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(ms: number): void {
    if (ms < this.#now) throw new RangeError(`clock cannot go backwards (${ms} < ${this.#now})`);
    this.#now = ms;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance needs a non-negative duration, got ${ms}`);
    this.#now += ms;
  }
}
