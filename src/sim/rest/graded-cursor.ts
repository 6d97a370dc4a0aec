import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The graded endpoints' parameters: ISO 8601 instants, the opaque getGradedSince cursor,
 * and the paging of a user's grade log with its `settledThrough` (exchange-api §4.13-4.15).
 */

// ---------------------------------------------------------------- ISO 8601

const DAY_MS = 86_400_000;
const YEAR = '([+-]\\d{6}|\\d{4})';
const CALENDAR_EXT = new RegExp(`^${YEAR}-(\\d{2})-(\\d{2})$`);
const CALENDAR_BASIC = new RegExp(`^${YEAR}(\\d{2})(\\d{2})$`);
const YEAR_MONTH = new RegExp(`^${YEAR}-(\\d{2})$`);
const YEAR_ONLY = new RegExp(`^${YEAR}$`);
const ORDINAL = new RegExp(`^${YEAR}-?(\\d{3})$`);
const WEEK = new RegExp(`^${YEAR}-?W(\\d{2})(?:-?([1-7]))?$`);
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?([.,]\d+)?$/;
const ZONE = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const MAX_INSTANT = 8.64e15;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Midnight UTC of a proleptic Gregorian date (years 0-99 included, unlike Date.UTC). */
function utcMidnight(year: number, monthIndex: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMidnight(year, month, 1) - DAY_MS).getUTCDate(); // day 0 of the next month
}

function weeksInYear(year: number): number {
  const jan1 = new Date(utcMidnight(year, 0, 1)).getUTCDay();
  return jan1 === 4 || (jan1 === 3 && isLeap(year)) ? 53 : 52;
}

/** Midnight UTC of the date part, or null. */
function parseDatePart(s: string): number | null {
  let m = CALENDAR_EXT.exec(s) ?? CALENDAR_BASIC.exec(s);
  if (m) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    const d = Number(m[3]);
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
    return utcMidnight(y, mo - 1, d);
  }
  if ((m = YEAR_MONTH.exec(s))) {
    const mo = Number(m[2]);
    return mo >= 1 && mo <= 12 ? utcMidnight(Number(m[1]), mo - 1, 1) : null;
  }
  if ((m = YEAR_ONLY.exec(s))) return utcMidnight(Number(m[1]), 0, 1);
  if ((m = ORDINAL.exec(s))) {
    const y = Number(m[1]);
    const n = Number(m[2]);
    return n >= 1 && n <= (isLeap(y) ? 366 : 365) ? utcMidnight(y, 0, n) : null;
  }
  if ((m = WEEK.exec(s))) {
    const y = Number(m[1]);
    const w = Number(m[2]);
    const wd = m[3] === undefined ? 1 : Number(m[3]);
    if (w < 1 || w > weeksInYear(y)) return null;
    const jan4 = utcMidnight(y, 0, 4);
    const monday1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS;
    return monday1 + ((w - 1) * 7 + (wd - 1)) * DAY_MS;
  }
  return null;
}

/** Milliseconds into the day of a time part (`hh`, `hh:mm`, `hh:mm:ss`, basic forms, a decimal fraction on the last one). */
function parseTimePart(s: string): number | null {
  const m = TIME.exec(s);
  if (!m) return null;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const sec = m[3] === undefined ? 0 : Number(m[3]);
  const frac = m[4] === undefined ? 0 : Number(`0.${m[4].slice(1)}`);
  if (min > 59 || sec > 60) return null;
  if (h > 24 || (h === 24 && (min > 0 || sec > 0 || frac > 0))) return null;
  const unit = m[3] !== undefined ? 1000 : m[2] !== undefined ? 60_000 : 3_600_000;
  return h * 3_600_000 + min * 60_000 + sec * 1000 + Math.floor(frac * unit);
}

/** Offset of a zone designator in ms (east positive), or null. */
function parseZone(z: string): number | null {
  if (z === 'Z' || z === 'z') return 0;
  const m = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(z);
  if (!m) return null;
  const h = Number(m[2]);
  const min = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (h * 3_600_000 + min * 60_000);
}

/**
 * An instant in any ISO 8601 form: calendar, ordinal or week dates (extended or basic),
 * an optional time (`T` or a space) with a fraction and a zone. A time without a zone is
 * read as UTC, the exchange's own zone. Null when the text is not ISO 8601.
 */
export function parseIsoInstant(text: string): number | null {
  const s = text.trim();
  if (s.length === 0 || s.length > 64) return null;
  const sep = s.search(/[Tt ]/);
  const datePart = sep < 0 ? s : s.slice(0, sep);
  const date = parseDatePart(datePart);
  if (date === null) return null;
  let ms = date;
  if (sep >= 0) {
    let rest = s.slice(sep + 1);
    let offset = 0;
    const zone = ZONE.exec(rest);
    if (zone) {
      const parsed = parseZone(zone[1]!);
      if (parsed === null) return null;
      offset = parsed;
      rest = rest.slice(0, zone.index);
    }
    const time = parseTimePart(rest);
    if (time === null) return null;
    ms += time - offset;
  }
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_INSTANT ? ms : null;
}

// ---------------------------------------------------------------- cursor

/** What a cursor holds: whose log, how far it was read, and the `settledThrough` given with it. */
export interface CursorState {
  readonly userId: string;
  /** Number of entries of the user's grade log already returned (the next page starts here). */
  readonly position: number;
  /** `settledThrough` (ms) answered with this cursor: a floor for later answers. */
  readonly settledThrough: number;
}

const CURSOR_DOMAIN = 'linesmith/getGradedSince/v1\0';
const SIG_BYTES = 32;
const Payload = z.object({
  v: z.literal(1),
  u: z.string().min(1),
  p: z.number().int().nonnegative(),
  t: z.number().int().min(-MAX_INSTANT).max(MAX_INSTANT),
});

const sign = (secret: Buffer, payload: Buffer): Buffer =>
  createHmac('sha256', secret).update(CURSOR_DOMAIN).update(payload).digest();

/** An opaque, tamper-proof cursor: base64url of HMAC-SHA256(secret, payload) ‖ payload. */
export function encodeCursor(secret: Buffer, state: CursorState): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, u: state.userId, p: state.position, t: state.settledThrough }),
    'utf8',
  );
  return Buffer.concat([sign(secret, payload), payload]).toString('base64url');
}

export type CursorCheck =
  { readonly ok: true; readonly state: CursorState } | { readonly ok: false; readonly error: string };

/** Verify a cursor for `userId`. Anything this endpoint did not issue to that user is rejected. */
export function decodeCursor(secret: Buffer, cursor: string, userId: string): CursorCheck {
  const bad: CursorCheck = { ok: false, error: 'invalid cursor' };
  if (cursor.length === 0 || cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return bad;
  const raw = Buffer.from(cursor, 'base64url');
  // Base64 ignores the spare bits of the last character: only the canonical spelling is ours.
  if (raw.length <= SIG_BYTES || raw.toString('base64url') !== cursor) return bad;
  const payload = raw.subarray(SIG_BYTES);
  if (!timingSafeEqual(raw.subarray(0, SIG_BYTES), sign(secret, payload))) return bad;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return bad;
  }
  const p = Payload.safeParse(parsed);
  if (!p.success) return bad;
  if (p.data.u !== userId) return { ok: false, error: 'cursor belongs to another user' };
  return { ok: true, state: { userId: p.data.u, position: p.data.p, settledThrough: p.data.t } };
}

// ---------------------------------------------------------------- paging

export const GRADED_PAGE_SIZE = 100;

export interface LogPage<T> {
  readonly rows: readonly T[];
  /** Position after the page. */
  readonly end: number;
  readonly hasMore: boolean;
  readonly settledThrough: number;
}

/** First position whose entry settled strictly after `since` (the log is in settlement order). */
export function positionAfter(log: readonly { readonly settledAt: number }[], since: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid]!.settledAt > since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The latest instant S such that every entry of `log` settled at or before S lies before
 * `end` (so is held by a client that read up to there), never below `floor` (what the
 * client already claimed: `since` or the previous `settledThrough`) and never after `now`.
 *
 * The first entry not held bounds S from below its instant: when a page ends inside a
 * group settled in one millisecond, S steps back to the last earlier instant. When the
 * client is caught up, the current millisecond is still open (another settlement may land
 * in it), so entries settled at `now` count as an unfinished group too.
 */
export function settledThroughAt(
  log: readonly { readonly settledAt: number }[],
  end: number,
  floor: number,
  now: number,
): number {
  const boundary = end < log.length ? log[end]!.settledAt : now;
  let j = end - 1;
  while (j >= 0 && log[j]!.settledAt >= boundary) j--;
  const complete = j >= 0 ? log[j]!.settledAt : -Infinity;
  return Math.min(Math.max(floor, complete), now);
}

/** A page of at most `pageSize` entries from `start`, with `hasMore` and `settledThrough`. */
export function pageOf<T extends { readonly settledAt: number }>(
  log: readonly T[],
  start: number,
  floor: number,
  now: number,
  pageSize = GRADED_PAGE_SIZE,
): LogPage<T> {
  const from = Math.min(start, log.length);
  const end = Math.min(log.length, from + pageSize);
  return {
    rows: log.slice(from, end),
    end,
    hasMore: end < log.length,
    settledThrough: settledThroughAt(log, end, floor, now),
  };
}
