import type { Random } from '../../shared/random.ts';
import type { Score } from '../../markets/types.ts';

/** How a tie is broken (two-way sports): who wins overtime and by how much. */
export interface Overtime {
  /** Probability the home side wins the overtime. */
  readonly homeShare: number;
  readonly points: number;
}

/** A Poisson draw (Knuth's method; the simulator only asks for small means). */
export function samplePoisson(random: Random, lambda: number): number {
  if (!(lambda > 0)) return 0;
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * random.normal()));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = random.float();
  while (p > limit) {
    k++;
    p *= random.float();
  }
  return k;
}

/**
 * Final score of a points game from its latent margin and total (both continuous): round
 * to whole points, never below zero, and break a tie in overtime when the sport has no draws.
 */
export function finalScoreFromLatent(margin: number, total: number, overtime: Overtime | null, random: Random): Score {
  const t = Math.max(0, total);
  let home = Math.max(0, Math.round((t + margin) / 2));
  let away = Math.max(0, Math.round((t - margin) / 2));
  if (home === away && overtime) {
    if (random.chance(overtime.homeShare)) home += overtime.points;
    else away += overtime.points;
  }
  return { home, away };
}

/** Final score of a goals game; a tie goes to overtime when the sport has no draws. */
export function finalScoreFromGoals(home: number, away: number, overtime: Overtime | null, random: Random): Score {
  if (home === away && overtime) {
    if (random.chance(overtime.homeShare)) home += overtime.points;
    else away += overtime.points;
  }
  return { home, away };
}
