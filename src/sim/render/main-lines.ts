/** The main spread (home view; away is its negation) and total of a game; null where no line has orders. */
export interface MainLines {
  readonly mainHomeSpread: number | null;
  readonly mainAwaySpread: number | null;
  readonly mainTotal: number | null;
}

export const NO_MAIN_LINES: MainLines = { mainHomeSpread: null, mainAwaySpread: null, mainTotal: null };

/** Resting liquidity (Σ sumUntaken over both sides) of one spread line (home view) or total. */
export interface LineLiquidity {
  readonly kind: 'spread' | 'total';
  readonly line: number;
  readonly liquidity: number;
}

/**
 * The simulator's definition of main lines (the contract gives none): per kind, the line
 * with the most resting liquidity; a tie goes to the line nearer zero. Lines with no
 * liquidity never count. Entries of the same line must already be summed.
 */
export function chooseMainLines(lines: Iterable<LineLiquidity>): MainLines {
  let spread: LineLiquidity | null = null;
  let total: LineLiquidity | null = null;
  const better = (x: LineLiquidity, current: LineLiquidity | null) =>
    current === null ||
    x.liquidity > current.liquidity ||
    (x.liquidity === current.liquidity && Math.abs(x.line) < Math.abs(current.line));
  for (const l of lines) {
    if (!(l.liquidity > 0)) continue;
    if (l.kind === 'spread') {
      if (better(l, spread)) spread = l;
    } else if (better(l, total)) total = l;
  }
  return {
    mainHomeSpread: spread ? spread.line : null,
    mainAwaySpread: spread ? -spread.line || 0 : null,
    mainTotal: total ? total.line : null,
  };
}
