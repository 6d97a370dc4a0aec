import type { PlaceOrderInput } from './types.ts';

/**
 * Fills in a userReference on every order that has none: the handle by which a place whose
 * answer was lost is found again instead of being sent twice. References are unique per
 * process run (a random run prefix and a counter), short enough for the exchange to echo.
 */
export class UserReferences {
  readonly #prefix: string;
  #next = 0;

  /** `runId` should differ between runs (e.g. random base36); tests pass a fixed one. */
  constructor(runId: string) {
    this.#prefix = `ls-${runId}-`;
  }

  next(): string {
    return this.#prefix + (this.#next++).toString(36);
  }

  ensure(orders: readonly PlaceOrderInput[]): PlaceOrderInput[] {
    return orders.map((o) => (o.userReference ? o : { ...o, userReference: this.next() }));
  }
}

/** A run id from a random source: 8 base36 characters. */
export function randomRunId(random: () => number): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += Math.floor(random() * 36).toString(36);
  return s;
}
