/**
 * The exchange keeps full precision internally and rounds only where it renders money
 * as 2-decimal strings on REST reads. Rounding is half away from zero on the decimal
 * value the float stands for (1.005 → "1.01"), so binary noise never flips a cent.
 */
export function toCents(x: number): number {
  const scaled = Number((Math.abs(x) * 100).toPrecision(15));
  const cents = Math.round(scaled);
  return x < 0 ? -cents : cents;
}

export function roundMoney(x: number): number {
  const c = toCents(x);
  return c === 0 ? 0 : c / 100;
}

export function formatMoney(x: number): string {
  const c = toCents(x);
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Reconciling unrounded place results with 2-decimal REST reads: a cent of tolerance. */
export function moneyEquals(a: number, b: number, tolerance = 0.01): boolean {
  return Math.abs(a - b) <= tolerance + 1e-9;
}
