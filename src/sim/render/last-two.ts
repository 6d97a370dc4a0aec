/**
 * The strings of the last two keys spelt, the newer first: a host that spells two values by
 * turns (the clock's now and a game's start, today and that game's day) spells each once.
 */
export class LastTwo {
  #key = Number.NaN;
  #value = '';
  #olderKey = Number.NaN;
  #olderValue = '';

  /** The string kept for `key` (it becomes the newer of the two), or undefined. */
  get(key: number): string | undefined {
    if (key === this.#key) return this.#value;
    if (key !== this.#olderKey) return undefined;
    const value = this.#olderValue;
    this.set(key, value);
    return value;
  }

  /** Keeps `value` as `key`'s, the newer of the two; the older one goes. */
  set(key: number, value: string): void {
    this.#olderKey = this.#key;
    this.#olderValue = this.#value;
    this.#key = key;
    this.#value = value;
  }
}
