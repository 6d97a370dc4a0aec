import { z } from 'zod';

/** 24-hex ObjectID (exchange-api §1.3). Not enforced on reads: a real server may widen it. */
export const Id = z.string().min(1);

/** ISO 8601 instant, kept as the string the server sent; callers parse when they need ms. */
export const IsoString = z.string();

/** American odds as the wire carries them (REST reads may send numbers as floats). */
export const Odds = z.number();

/**
 * A REST money read: a 2-decimal string (exchange-api §2.6, §2.7). Numbers are accepted too,
 * since a server may send either; the value is the exchange's own rounding, kept as is.
 */
export const MoneyString = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || (typeof v === 'string' && v.trim() === '')) {
    ctx.addIssue({ code: 'custom', message: `not a money amount: ${JSON.stringify(v).slice(0, 40)}` });
    return z.NEVER;
  }
  return n;
});

export const MarketTypeWire = z.enum(['moneyline', 'spread', 'total', 'moneyline1x2']);

/** Nullable-and-optional, the way servers tend to omit or null the same field. */
export const opt = <T extends z.ZodType>(t: T) => t.nullish();
