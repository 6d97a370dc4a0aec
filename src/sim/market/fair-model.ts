import type { Random } from '../../shared/random.ts';
import type { Score } from '../../markets/types.ts';
import { finalScoreFromLatent, finalScoreFromGoals, samplePoisson } from './scores.ts';

/**
 * The latent "truth" of each synthetic game. Every price the synthetic traders quote and
 * every final score comes from here, so the book moves the way the outcome distribution
 * moves and grading agrees with the prices.
 *
 * Two families:
 * - `normal` (basketball, football): the final home margin is N(μ, σ²) and the total is
 *   N(τ, σ_t²). In play the margin and total accumulate as Brownian paths with those drifts,
 *   so with a fraction r of the game left the final margin is N(m + μr, σ²r).
 * - `poisson` (soccer, hockey, baseball): goals of each side arrive as Poisson processes
 *   with full-game means λh, λa; in play the remaining goals are Poisson(λ·r) on top of the
 *   current score.
 * Before the start μ (or the log strength ratio) and the expected total drift as random
 * walks, with occasional news jumps; in play the score path moves the price and rare
 * shocks (injury, red card) jump the underlying rates.
 */

export const SPORTS = ['basketball', 'football', 'hockey', 'baseball', 'soccer'] as const;
export type Sport = (typeof SPORTS)[number];

export interface SportProfile {
  readonly kind: 'normal' | 'poisson';
  /** Wall duration of a game from start to final whistle, minutes. */
  readonly durationMinutes: number;
  /** Ties stand (soccer, three-way) or are broken in overtime (everything else). */
  readonly draws: boolean;
  /** Points the overtime winner adds to break a tie. */
  readonly overtimePoints: number;
  /** Fixed main spread (puck line / run line: favourite -1.5); absent → the line nearest the median margin. */
  readonly fixedSpread?: number;
  // normal family: points
  readonly marginSd: number;
  readonly totalMean: number;
  readonly totalSd: number;
  /** Home advantage: points (normal) or log strength ratio (poisson). */
  readonly homeEdge: number;
  /** Spread of team strength: points (normal) or log ratio (poisson). */
  readonly ratingSd: number;
  /** Pre-game random walk of μ per √hour: points (normal) or log ratio (poisson). */
  readonly driftPerSqrtHour: number;
  /** Pre-game random walk of the expected total per √hour (points or goals). */
  readonly totalDriftPerSqrtHour: number;
  /** Size (sd) of a news jump pre-game or a shock in play (points or log ratio). */
  readonly jumpSd: number;
}

export const SPORT_PROFILES: Readonly<Record<Sport, SportProfile>> = {
  basketball: {
    kind: 'normal',
    durationMinutes: 150,
    draws: false,
    overtimePoints: 3,
    marginSd: 12,
    totalMean: 224,
    totalSd: 17,
    homeEdge: 2.5,
    ratingSd: 5,
    driftPerSqrtHour: 0.6,
    totalDriftPerSqrtHour: 0.8,
    jumpSd: 2.5,
  },
  football: {
    kind: 'normal',
    durationMinutes: 195,
    draws: false,
    overtimePoints: 3,
    marginSd: 13.5,
    totalMean: 45,
    totalSd: 10,
    homeEdge: 1.8,
    ratingSd: 5.5,
    driftPerSqrtHour: 0.5,
    totalDriftPerSqrtHour: 0.4,
    jumpSd: 3,
  },
  hockey: {
    kind: 'poisson',
    durationMinutes: 150,
    draws: false,
    overtimePoints: 1,
    fixedSpread: 1.5,
    marginSd: 0,
    totalMean: 6.1,
    totalSd: 0,
    homeEdge: 0.06,
    ratingSd: 0.18,
    driftPerSqrtHour: 0.025,
    totalDriftPerSqrtHour: 0.08,
    jumpSd: 0.2,
  },
  baseball: {
    kind: 'poisson',
    durationMinutes: 180,
    draws: false,
    overtimePoints: 1,
    fixedSpread: 1.5,
    marginSd: 0,
    totalMean: 8.8,
    totalSd: 0,
    homeEdge: 0.04,
    ratingSd: 0.14,
    driftPerSqrtHour: 0.02,
    totalDriftPerSqrtHour: 0.12,
    jumpSd: 0.15,
  },
  soccer: {
    kind: 'poisson',
    durationMinutes: 115,
    draws: true,
    overtimePoints: 0,
    marginSd: 0,
    totalMean: 2.7,
    totalSd: 0,
    homeEdge: 0.25,
    ratingSd: 0.45,
    driftPerSqrtHour: 0.03,
    totalDriftPerSqrtHour: 0.05,
    jumpSd: 0.35,
  },
};

/** Fair probabilities of the quoted markets at the current main lines. */
export interface FairPrices {
  /** Home wins (two-way: overtime included; three-way: in regulation). */
  readonly home: number;
  readonly away: number;
  /** Three-way draw; 0 for two-way sports. */
  readonly draw: number;
  /** Home handicap of the main spread: home covers when margin + line > 0. A half line. */
  readonly spreadLine: number;
  readonly homeCovers: number;
  /** Main total, a half line. */
  readonly totalLine: number;
  readonly over: number;
}

export interface ModelSettings {
  /** Multiplies the sport's pre-game drift. */
  readonly preGameDrift: number;
  /** Pre-game news jumps per hour. */
  readonly newsPerHour: number;
  /** In-play shocks per hour. */
  readonly liveJumpsPerHour: number;
}

/** What the outcome distribution says right now; lines are queried on it. */
interface Outlook {
  readonly pHome: number;
  readonly pDraw: number;
  readonly pAway: number;
  /** Share of a tie the home side wins in overtime. */
  readonly overtimeHome: number;
  readonly meanMargin: number;
  readonly meanTotal: number;
  cover(line: number): number;
  over(line: number): number;
}

const HOUR = 3_600_000;
/** Keep a line while its probability stays inside this band; re-centre it otherwise. */
const LINE_BAND = 0.2;

/**
 * One game's latent model. `fair()` is cached until the state moves, so reading it every
 * refresh costs nothing while the game is quiet.
 */
export class GameModel {
  readonly profile: SportProfile;
  readonly durationMs: number;
  /** Normal: expected final margin (home − away). Poisson: log ratio of home to away scoring rate. */
  #mu: number;
  /** Expected full-game total (points or goals). */
  #tau: number;
  /** Elapsed fraction of play, 0 before the start, 1 at the end. */
  #elapsed = 0;
  /** Normal: latent accumulated margin and total. Poisson: goals so far. */
  #margin = 0;
  #total = 0;
  #home = 0;
  #away = 0;
  #spreadLine: number | null = null;
  #totalLine: number | null = null;
  #fair: FairPrices | null = null;
  #version = 0;

  constructor(
    profile: SportProfile,
    durationMinutes: number,
    /** Strength difference home − away (points or log ratio), home edge not included. */
    strength: number,
    private readonly random: Random,
    private readonly settings: ModelSettings,
  ) {
    this.profile = profile;
    this.durationMs = durationMinutes * 60_000;
    this.#mu = strength + profile.homeEdge;
    this.#tau =
      profile.kind === 'normal'
        ? profile.totalMean + random.normal() * profile.totalSd * 0.15
        : profile.totalMean * Math.exp(random.normal() * 0.08);
  }

  /** Bumped whenever the fair prices may have changed. */
  get version(): number {
    return this.#version;
  }

  get elapsed(): number {
    return this.#elapsed;
  }

  /** Score so far (rounded for the points sports). */
  liveScore(): Score {
    if (this.profile.kind === 'poisson') return { home: this.#home, away: this.#away };
    const home = Math.max(0, Math.round((this.#total + this.#margin) / 2));
    const away = Math.max(0, Math.round((this.#total - this.#margin) / 2));
    return { home, away };
  }

  /** Pre-game: random walk of the underlying strength and total, plus rare news. */
  drift(dtMs: number): void {
    if (dtMs <= 0) return;
    const p = this.profile;
    const h = dtMs / HOUR;
    const k = this.settings.preGameDrift * Math.sqrt(h);
    this.#mu += this.random.normal() * p.driftPerSqrtHour * k;
    this.#tau = this.#clampTotal(this.#tau + this.random.normal() * p.totalDriftPerSqrtHour * k);
    if (this.settings.newsPerHour > 0 && this.random.chance(1 - Math.exp(-this.settings.newsPerHour * h))) {
      this.#mu += this.random.normal() * p.jumpSd;
    }
    this.#touch();
  }

  /** In play: advance the score path by `dtMs` of game time; rare shocks move the rates. */
  play(dtMs: number): void {
    if (dtMs <= 0 || this.#elapsed >= 1) return;
    const p = this.profile;
    const next = Math.min(1, this.#elapsed + dtMs / this.durationMs);
    const df = next - this.#elapsed;
    this.#elapsed = next;
    if (
      this.settings.liveJumpsPerHour > 0 &&
      this.random.chance(1 - Math.exp((-this.settings.liveJumpsPerHour * dtMs) / HOUR))
    ) {
      this.#mu += this.random.normal() * p.jumpSd;
    }
    if (p.kind === 'normal') {
      this.#margin += this.#mu * df + this.random.normal() * p.marginSd * Math.sqrt(df);
      this.#total += this.#tau * df + this.random.normal() * p.totalSd * Math.sqrt(df);
    } else {
      const [lh, la] = this.#rates();
      this.#home += samplePoisson(this.random, lh * df);
      this.#away += samplePoisson(this.random, la * df);
    }
    this.#touch();
  }

  /** The final score, drawn from the same model: the path played to the end, ties broken in overtime. */
  finalScore(): Score {
    if (this.#elapsed < 1) this.play((1 - this.#elapsed) * this.durationMs);
    const p = this.profile;
    const outlook = this.#outlook();
    if (p.kind === 'normal') {
      return finalScoreFromLatent(
        this.#margin,
        this.#total,
        p.draws ? null : { homeShare: outlook.overtimeHome, points: p.overtimePoints },
        this.random,
      );
    }
    return finalScoreFromGoals(
      this.#home,
      this.#away,
      p.draws ? null : { homeShare: outlook.overtimeHome, points: p.overtimePoints },
      this.random,
    );
  }

  /** Fair probabilities at the current main lines (lines move only when far from even). */
  fair(): FairPrices {
    if (this.#fair) return this.#fair;
    const o = this.#outlook();
    const p = this.profile;
    const twoWayHome = o.pHome + o.pDraw * o.overtimeHome;
    const home = p.draws ? o.pHome : twoWayHome;
    const away = p.draws ? o.pAway : 1 - twoWayHome;
    const draw = p.draws ? o.pDraw : 0;

    let spreadLine = this.#spreadLine;
    if (p.fixedSpread !== undefined) {
      spreadLine = twoWayHome >= 0.5 ? -p.fixedSpread : p.fixedSpread;
    } else if (spreadLine === null || Math.abs(o.cover(spreadLine) - 0.5) > LINE_BAND) {
      spreadLine = bestHalfLine(-o.meanMargin, (l) => o.cover(l) - 0.5);
    }
    let totalLine = this.#totalLine;
    if (totalLine === null || Math.abs(o.over(totalLine) - 0.5) > LINE_BAND) {
      totalLine = Math.max(
        0.5,
        bestHalfLine(o.meanTotal, (l) => o.over(l) - 0.5),
      );
    }
    this.#spreadLine = spreadLine;
    this.#totalLine = totalLine;
    this.#fair = { home, away, draw, spreadLine, homeCovers: o.cover(spreadLine), totalLine, over: o.over(totalLine) };
    return this.#fair;
  }

  #touch(): void {
    this.#fair = null;
    this.#version++;
  }

  #clampTotal(t: number): number {
    const mean = this.profile.totalMean;
    return Math.min(mean * 1.6, Math.max(mean * 0.5, t));
  }

  /** Full-game scoring rates of home and away (poisson family). */
  #rates(): [number, number] {
    const half = this.#tau / 2;
    const x = this.#mu / 2;
    return [half * Math.exp(x), half * Math.exp(-x)];
  }

  #outlook(): Outlook {
    const r = Math.max(1 - this.#elapsed, 1e-4);
    if (this.profile.kind === 'normal') {
      const p = this.profile;
      const m = this.#margin + this.#mu * r;
      const s = p.marginSd * Math.sqrt(r);
      const t = this.#total + this.#tau * r;
      const st = p.totalSd * Math.sqrt(r);
      // Integer scores: a tie is a final margin within half a point of zero.
      const pHome = 1 - normalCdf((0.5 - m) / s);
      const pAway = normalCdf((-0.5 - m) / s);
      return {
        pHome,
        pAway,
        pDraw: Math.max(0, 1 - pHome - pAway),
        overtimeHome: normalCdf(this.#mu / p.marginSd),
        meanMargin: m,
        meanTotal: t,
        cover: (line) => 1 - normalCdf((-line - m) / s),
        over: (line) => 1 - normalCdf((line - t) / st),
      };
    }
    const [lh, la] = this.#rates();
    return poissonOutlook(this.#home, this.#away, lh * r, la * r, lh / (lh + la));
  }
}

/** The half line (…, -0.5, 0.5, 1.5, …) near `centre` whose probability is closest to even. */
function bestHalfLine(centre: number, offEven: (line: number) => number): number {
  const base = Math.floor(centre) + 0.5;
  let best = base;
  let bestOff = Math.abs(offEven(base));
  for (const candidate of [base - 2, base - 1, base + 1, base + 2]) {
    const off = Math.abs(offEven(candidate));
    if (off < bestOff - 1e-12) {
      best = candidate;
      bestOff = off;
    }
  }
  return best;
}

function poissonPmf(lambda: number): number[] {
  const n = Math.max(10, Math.ceil(lambda + 7 * Math.sqrt(lambda) + 4));
  const out: number[] = new Array<number>(n + 1);
  let p = Math.exp(-lambda);
  out[0] = p;
  for (let k = 1; k <= n; k++) {
    p *= lambda / k;
    out[k] = p;
  }
  return out;
}

/** Distribution of the final margin and total from the current goals plus Poisson remainders. */
function poissonOutlook(home: number, away: number, lh: number, la: number, overtimeHome: number): Outlook {
  const ph = poissonPmf(lh);
  const pa = poissonPmf(la);
  const nh = ph.length;
  const na = pa.length;
  // margin index: d + offset (d ≥ home − away − (na − 1)); total index: s. The offset may
  // fall outside the array when the score already rules a tie out: then P(draw) is 0.
  const offset = na - 1 + away - home;
  const marginPmf = new Float64Array(nh + na - 1);
  const totalPmf = new Float64Array(home + away + nh + na - 1);
  let meanMargin = 0;
  let meanTotal = 0;
  for (let i = 0; i < nh; i++) {
    const pi = ph[i]!;
    for (let j = 0; j < na; j++) {
      const pij = pi * pa[j]!;
      const d = home + i - (away + j);
      const s = home + i + away + j;
      marginPmf[d + offset]! += pij;
      totalPmf[s]! += pij;
      meanMargin += d * pij;
      meanTotal += s * pij;
    }
  }
  let pHome = 0;
  let pAway = 0;
  for (let k = 0; k < marginPmf.length; k++) {
    const d = k - offset;
    if (d > 0) pHome += marginPmf[k]!;
    else if (d < 0) pAway += marginPmf[k]!;
  }
  const pDraw = marginPmf[offset] ?? 0;
  const norm = pHome + pAway + pDraw;
  return {
    pHome: pHome / norm,
    pAway: pAway / norm,
    pDraw: pDraw / norm,
    overtimeHome,
    meanMargin,
    meanTotal,
    cover: (line) => {
      let p = 0;
      for (let k = 0; k < marginPmf.length; k++) if (k - offset + line > 0) p += marginPmf[k]!;
      return p / norm;
    },
    over: (line) => {
      let p = 0;
      for (let s = 0; s < totalPmf.length; s++) if (s > line) p += totalPmf[s]!;
      return p / norm;
    },
  };
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}
