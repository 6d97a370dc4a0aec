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

/** What applyLevelFlows returns when nothing fills: one frozen list, not one per call. */
const NO_FILLS: readonly QueueFill[] = Object.freeze([]);

/** Best price first, then arrival: the order our orders meet takers in. */
const byPriorityOrder = (a: QueuedOrder, b: QueuedOrder): number => b.rank - a.rank || a.seq - b.seq;
/** Best price first: the order takers walk the book in. */
const byRankDown = (a: LevelFlow, b: LevelFlow): number => b.rank - a.rank;

/**
 * Stake filled so far per order of the call, by its place in priority order: a scratch
 * list the calls share (a call never runs inside another), so a call makes no map of them.
 */
let filledScratch = new Float64Array(8);

/**
 * Apply one recorded change of a side to our orders on it, and say how much each fills.
 * `orders` are ours on that side; the volume of each trade is used once, best price first
 * (never by two of our orders), and never beyond an order's capacity. Most changes meet one
 * order of ours with one flow: those copy and sort nothing.
 */
export function applyLevelFlows(
  model: FillModelConfig,
  orders: readonly QueuedOrder[],
  flows: readonly LevelFlow[],
): readonly QueueFill[] {
  const n = orders.length;
  if (n === 0 || flows.length === 0) return NO_FILLS;
  const byPriority = n === 1 ? orders : [...orders].sort(byPriorityOrder);
  if (filledScratch.length < n) filledScratch = new Float64Array(n * 2);
  const filled = filledScratch;
  filled.fill(0, 0, n);
  const conservative = model.kind === 'conservative';
  // Takers walk the book best price first; so does the use of their volume.
  const walk = flows.length === 1 ? flows : [...flows].sort(byRankDown);
  for (let fi = 0; fi < walk.length; fi++) {
    const f = walk[fi]!;
    let avail = f.traded;
    if (avail > EPS) {
      for (let i = 0; i < n; i++) {
        const o = byPriority[i]!;
        if (o.rank <= f.rank || avail <= EPS) continue;
        avail -= take(filled, i, o, avail);
      }
      if (!conservative) {
        let shared = 0;
        for (let i = 0; i < n; i++) {
          const o = byPriority[i]!;
          if (o.rank !== f.rank) continue;
          // What this trade took from ahead of an earlier order of ours was ahead of this one too.
          o.front = Math.max(0, o.front - shared);
          const ahead = Math.min(avail, o.front);
          o.front -= ahead;
          shared += ahead;
          avail -= ahead;
          if (avail > EPS) avail -= take(filled, i, o, avail);
        }
      }
    }
    if (conservative) continue;
    for (let i = 0; i < n; i++) {
      const o = byPriority[i]!;
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
  let out: QueueFill[] | null = null;
  for (let i = 0; i < n; i++) {
    // Only a stake above EPS is ever added, so a filled order has a positive sum.
    if (filled[i]! > 0) (out ??= []).push({ order: byPriority[i]!, stake: filled[i]! });
  }
  return out ?? NO_FILLS;
}

/** Order `i` takes what it has room for of `avail`; returns the stake taken (0 when at most EPS). */
function take(filled: Float64Array, i: number, o: QueuedOrder, avail: number): number {
  const room = o.capacity - filled[i]!;
  const stake = Math.min(room, avail);
  if (!(stake > EPS)) return 0;
  filled[i] = filled[i]! + stake;
  return stake;
}
