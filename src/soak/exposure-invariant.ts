import type { RiskLimits } from '../orders/risk-gate.ts';
import { result, type InvariantResult } from './invariant-result.ts';
import type { ExposureSample } from './projected-exposure.ts';

/** The cap may be met exactly; float sums of the same terms in another order differ by far less. */
const TOLERANCE = 1e-6;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The account's projected worst case (every resting order counted where it loses), per game
 * and in total, never beyond the configured caps at any reading of the simulator's ledger:
 * every reading beyond a cap is a violation.
 */
export function projectedWithinCaps(
  samples: readonly ExposureSample[],
  limits: Pick<RiskLimits, 'maxGameLiability' | 'maxTotalLiability'>,
): InvariantResult {
  const broken: string[] = [];
  let worstGame = 0;
  let worstTotal = 0;
  for (const s of samples) {
    worstGame = Math.min(worstGame, s.game);
    worstTotal = Math.min(worstTotal, s.total);
    if (s.game < -limits.maxGameLiability - TOLERANCE)
      broken.push(
        `at ${iso(s.at)} the projected worst case on game ${s.gameID} was ${s.game.toFixed(2)} (cap −${limits.maxGameLiability})`,
      );
    if (s.total < -limits.maxTotalLiability - TOLERANCE)
      broken.push(
        `at ${iso(s.at)} the projected worst case over all games was ${s.total.toFixed(2)} (cap −${limits.maxTotalLiability})`,
      );
  }
  return result('projected worst case (resting orders included) within the caps', samples.length, 'readings', broken, [
    `worst per game ${worstGame.toFixed(2)} of cap −${limits.maxGameLiability}; ` +
      `worst in total ${worstTotal.toFixed(2)} of cap −${limits.maxTotalLiability}`,
  ]);
}
