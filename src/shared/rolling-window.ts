/**
 * At most `limit` events in any rolling `windowMs`, counted exactly: a ring of the last
 * `limit` event times; one more fits once the oldest of them has left the window. Both the
 * simulator's limits and the client's request budget count this way, as the exchange does.
 */
export class RollingWindow {
  readonly #times: Float64Array;
  #next = 0;
  #count = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!(limit >= 1) || !Number.isInteger(limit) || !(windowMs > 0))
      throw new RangeError('integer limit ≥ 1 and windowMs > 0 required');
    this.#times = new Float64Array(limit);
  }

  /** The instant one more event fits; at or before `now` means it fits now. */
  freeAt(now: number): number {
    if (this.#count < this.limit) return now;
    return Math.max(now, this.#times[this.#next]! + this.windowMs);
  }

  record(now: number): void {
    if (this.#count < this.limit) this.#count++;
    this.#times[this.#next] = now;
    this.#next = (this.#next + 1) % this.limit;
  }

  /** The most recent event, or -Infinity. */
  get newest(): number {
    return this.#count === 0 ? -Infinity : this.#times[(this.#next + this.limit - 1) % this.limit]!;
  }
}
