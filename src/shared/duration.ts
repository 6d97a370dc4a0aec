import { LinesmithError } from './errors.ts';

/**
 * Human durations in configuration and on the command line: `500ms`, `45s`, `10m`,
 * `1h30m`, `2d`. Parts go from the largest unit to the smallest, each unit at most once,
 * so `30m1h` (almost always a typo) is refused rather than summed.
 */

const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const UNITS_DESC: readonly Unit[] = ['d', 'h', 'm', 's', 'ms'];

/** `ms` must be tried before `m`, or `500ms` would read as 500 minutes and a stray `s`. */
const PART = /(\d+(?:\.\d+)?)\s*(ms|[dhms])(?![a-z])/iy;

export class DurationError extends LinesmithError {
  override readonly code = 'LS_ERR_DURATION';
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`invalid duration ${JSON.stringify(input)}: ${reason}`);
  }
}

/** Milliseconds in `text`. Throws DurationError naming the input and what is wrong with it. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '') throw new DurationError(text, 'it is empty (write e.g. 45s, 10m, 1h30m or 500ms)');
  if (s === '0') return 0;
  if (s.startsWith('-')) throw new DurationError(text, 'durations cannot be negative');
  if (/^\d+(\.\d+)?$/.test(s))
    throw new DurationError(text, `a unit is missing (write e.g. ${s}s or ${s}ms; units: ms, s, m, h, d)`);

  let total = 0;
  let pos = 0;
  let lastRank = -1;
  while (pos < s.length) {
    while (s[pos] === ' ') pos++;
    PART.lastIndex = pos;
    const m = PART.exec(s);
    if (!m)
      throw new DurationError(
        text,
        `cannot read ${JSON.stringify(s.slice(pos))} (expected a number followed by ms, s, m, h or d)`,
      );
    const unit = m[2]!.toLowerCase() as Unit;
    const rank = UNITS_DESC.indexOf(unit);
    if (rank <= lastRank) throw new DurationError(text, 'give each unit once, largest first (e.g. 1h30m, not 30m1h)');
    lastRank = rank;
    total += Number(m[1]) * UNIT_MS[unit];
    pos = PART.lastIndex;
  }
  // Float sums like 0.1s + … can land a hair off a whole number; anything further off is a finer-than-ms request.
  const rounded = Math.round(total);
  if (Math.abs(total - rounded) > 1e-6) throw new DurationError(text, 'finer than a millisecond');
  if (!Number.isSafeInteger(rounded)) throw new DurationError(text, 'too long');
  return rounded;
}
