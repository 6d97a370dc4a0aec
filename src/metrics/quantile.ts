/** One cumulative histogram bucket: how many observations were ≤ `le` (Infinity for +Inf). */
export interface CumulativeBucket {
  readonly le: number;
  readonly count: number;
}

/**
 * The q-quantile estimated from cumulative buckets the way Prometheus' histogram_quantile
 * does: linear within the bucket that holds the rank, the lowest bucket starting at 0, and
 * the upper bound of the highest finite bucket when the rank falls in +Inf. Null without
 * observations.
 */
export function bucketQuantile(q: number, buckets: readonly CumulativeBucket[]): number | null {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const total = sorted[sorted.length - 1]?.count ?? 0;
  if (!(total > 0) || !(q >= 0 && q <= 1)) return null;
  const rank = q * total;
  let lowerLe = 0;
  let lowerCount = 0;
  for (const b of sorted) {
    if (b.count >= rank && b.count > lowerCount) {
      if (b.le === Infinity) return lowerLe;
      return lowerLe + ((b.le - lowerLe) * (rank - lowerCount)) / (b.count - lowerCount);
    }
    if (b.le !== Infinity) lowerLe = b.le;
    lowerCount = b.count;
  }
  return lowerLe;
}
