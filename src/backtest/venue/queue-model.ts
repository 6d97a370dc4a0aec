/**
 * Where our resting orders stand in the recorded queue, and how much of the recorded flow
 * would have filled them. Sizes are taker stakes at the level's listed odds (what the
 * book's `sumUntaken` counts), so orders of one price level add up.
 *
 * Every model fills an order from volume that traded *through* its price (a taker accepted
 * a worse price than ours, so ours went first). They differ at our own price:
 * - `conservative`: never; only trade-through fills.
 * - `risk-averse`: we join behind everything resting at our price; only trades at our price
 *   move us up, and when the level shrinks below what we think is ahead, the estimate is
 *   capped to the level (whatever left did not leave from behind us).
 * - `probabilistic`: like risk-averse for trades; a decrease that is not a trade is split
 *   ahead of and behind us by a power function of the two sizes: the share ahead is
 *   front^n / (front^n + back^n), so cancels come mostly from the bigger part.
 */
export type FillModelKind = 'conservative' | 'risk-averse' | 'probabilistic';
export const FILL_MODEL_KINDS: readonly FillModelKind[] = ['conservative', 'risk-averse', 'probabilistic'];

export interface FillModelConfig {
  readonly kind: FillModelKind;
  /** Exponent of the probabilistic model (1: proportional; larger: more from the bigger part). */
  readonly power: number;
}

/** One of our resting orders, as the queue model tracks it. */
export interface QueuedOrder {
  readonly id: string;
  /** oddsRank of the listed odds: higher is better for the taker. */
  readonly rank: number;
  /** Arrival order, for time priority among our own orders at one price. */
  readonly seq: number;
  /** Recorded size estimated ahead of us at our price. */
  front: number;
  /** What a taker can still stake against us. */
  capacity: number;
}

/** Recorded flow at one price level of one listed side. */
export interface LevelFlow {
  readonly rank: number;
  /** Taken by takers. */
  readonly traded: number;
  /** Left without trading (cancelled, expired). */
  readonly cancelled: number;
  /** The recorded size of the level once the change is applied. */
  readonly sizeAfter: number;
}

export interface QueueFill {
  readonly order: QueuedOrder;
  readonly stake: number;
}

const EPS = 1e-9;

/**
 * Apply one recorded change of a side to our orders on it, and say how much each fills.
 * `orders` are ours on that side; the volume of each trade is used once, best price first
 * (never by two of our orders), and never beyond an order's capacity.
 */
export function applyLevelFlows(
  model: FillModelConfig,
  orders: readonly QueuedOrder[],
  flows: readonly LevelFlow[],
): QueueFill[] {
  if (orders.length === 0 || flows.length === 0) return [];
  const byPriority = [...orders].sort((a, b) => b.rank - a.rank || a.seq - b.seq);
  const filled = new Map<QueuedOrder, number>();
  const take = (o: QueuedOrder, avail: number): number => {
    const room = o.capacity - (filled.get(o) ?? 0);
    const stake = Math.min(room, avail);
    if (stake > EPS) filled.set(o, (filled.get(o) ?? 0) + stake);
    return stake > EPS ? stake : 0;
  };
  // Takers walk the book best price first; so does the use of their volume.
  for (const f of [...flows].sort((a, b) => b.rank - a.rank)) {
    let avail = f.traded;
    if (avail > EPS) {
      for (const o of byPriority) {
        if (o.rank <= f.rank || avail <= EPS) continue;
        avail -= take(o, avail);
      }
      if (model.kind !== 'conservative') {
        let shared = 0;
        for (const o of byPriority) {
          if (o.rank !== f.rank) continue;
          // What this trade took from ahead of an earlier order of ours was ahead of this one too.
          o.front = Math.max(0, o.front - shared);
          const ahead = Math.min(avail, o.front);
          o.front -= ahead;
          shared += ahead;
          avail -= ahead;
          if (avail > EPS) avail -= take(o, avail);
        }
      }
    }
    if (model.kind === 'conservative') continue;
    for (const o of byPriority) {
      if (o.rank !== f.rank) continue;
      if (model.kind === 'probabilistic' && f.cancelled > EPS && o.front > EPS) {
        const back = Math.max(0, f.sizeAfter + f.cancelled - o.front);
        const a = o.front ** model.power;
        const b = back ** model.power;
        o.front = Math.max(0, o.front - (f.cancelled * a) / (a + b));
      }
      if (o.front > f.sizeAfter) o.front = Math.max(0, f.sizeAfter);
    }
  }
  const out: QueueFill[] = [];
  for (const o of byPriority) {
    const stake = filled.get(o);
    if (stake !== undefined) out.push({ order: o, stake });
  }
  return out;
}
