import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';

/**
 * A seeded random source: the same seed gives the same sequence on every machine, which
 * is what makes the simulator's market and the benchmarks reproducible.
 */
export interface Random {
  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  /** Float in [0, 1). */
  float(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** Exponential with the given mean. */
  exponential(mean: number): number;
  /** An independent stream derived from this one. */
  fork(): Random;
}

export function createRandom(seed: number): Random {
  const rng = xoroshiro128plus(seed | 0);
  const float = () => uniformFloat64(rng);
  const random: Random = {
    int: (lo, hi) => uniformInt(rng, lo, hi),
    float,
    normal: () => {
      const u = 1 - float();
      const v = float();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[uniformInt(rng, 0, items.length - 1)]!;
    },
    chance: (p) => float() < p,
    exponential: (mean) => -Math.log(1 - float()) * mean,
    fork: () => createRandom(uniformInt(rng, -(2 ** 31), 2 ** 31 - 1)),
  };
  return random;
}
