import type { GameActivity } from './types.ts';

/** Half-life of the activity averages: recent enough to follow a game going live, smooth enough not to chase one fill. */
export const ACTIVITY_HALF_LIFE_MS = 5 * 60_000;

/**
 * Taker arrivals and volume per minute on one game, from matched-volume increments on the
 * price feed, as exponentially decayed rates (events per minute) on the model's clock.
 */
export class ActivityMeter {
  #arrivals = 0;
  #volume = 0;
  #at: number;
  #lastVolume: number | null = null;

  constructor(now: number) {
    this.#at = now;
  }

  /** A new matched volume total for the game. */
  observe(matchedVolume: number, now: number): void {
    this.#decay(now);
    if (this.#lastVolume !== null && matchedVolume > this.#lastVolume) {
      // Each unit of a decayed sum contributes rate = sum · ln2 / halfLife (per ms).
      this.#arrivals += 1;
      this.#volume += matchedVolume - this.#lastVolume;
    }
    this.#lastVolume = matchedVolume;
  }

  read(now: number): GameActivity {
    const k = Math.pow(0.5, Math.max(0, now - this.#at) / ACTIVITY_HALF_LIFE_MS);
    const perMinute = (Math.LN2 / ACTIVITY_HALF_LIFE_MS) * 60_000;
    return { takerArrivalsPerMinute: this.#arrivals * k * perMinute, volumePerMinute: this.#volume * k * perMinute };
  }

  #decay(now: number): void {
    if (now <= this.#at) return;
    const k = Math.pow(0.5, (now - this.#at) / ACTIVITY_HALF_LIFE_MS);
    this.#arrivals *= k;
    this.#volume *= k;
    this.#at = now;
  }
}
