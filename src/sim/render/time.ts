import { LastTwo } from './last-two.ts';

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on the year takes more than four digits. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * The date parts ("YYYY-MM-DDT") of the last two days spelt: consecutive instants share
 * one, and a message spells two days by turns (the clock's now and its game's start).
 */
const days = new LastTwo();

/** The minute last spelled ("YYYY-MM-DDTHH:MM:"): a clock read once a second stays in one for sixty. */
let lastMinute = Number.NaN;
let lastMinutePrefix = '';

/** The whole second last spelled ("YYYY-MM-DDTHH:MM:SS."), by its second since the epoch: instants of one burst share it. */
let lastSecond = Number.NaN;
let lastSecondPrefix = '';

/**
 * The last two instants spelt: a replay spells one game's start (an order's expiry, a
 * message's game) and the clock's now by turns, over and over.
 */
const instants = new LastTwo();

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** "00." to "59.": the seconds, spelt once. */
const SECONDS_DOT: readonly string[] = Array.from({ length: 60 }, (_, n) => `${pad2(n)}.`);

/** "000Z" to "999Z": the milliseconds and the zone, spelt once, so an instant is its second's prefix and one of these. */
const MILLIS_Z: readonly string[] = Array.from({ length: 1000 }, (_, n) => `${String(n).padStart(3, '0')}Z`);

/** ISO 8601 in UTC with a trailing Z, as the contract spells every timestamp. */
export function iso(ms: number): string {
  // Hosts spell many instants a run (every message carries the clock's now): the time of
  // day is plain arithmetic, and only a new day goes through Date. The same string as
  // Date#toISOString, which truncates fractional milliseconds; other instants (before
  // 1970, beyond year 9999, invalid) take Date's own path.
  if (!(ms >= 0 && ms < YEAR_10000_MS)) return new Date(ms).toISOString();
  const t = Math.floor(ms);
  const kept = instants.get(t);
  if (kept !== undefined) return kept;
  const second = Math.floor(t / 1000);
  const spelt = `${second === lastSecond ? lastSecondPrefix : secondPrefix(second)}${MILLIS_Z[t - second * 1000]!}`;
  instants.set(t, spelt);
  return spelt;
}

/** "YYYY-MM-DDTHH:MM:SS." of a second since the epoch, kept as the last second spelled. */
function secondPrefix(second: number): string {
  const minute = Math.floor(second / 60);
  if (minute !== lastMinute) {
    lastMinute = minute;
    lastMinutePrefix = minutePrefix(minute);
  }
  lastSecond = second;
  lastSecondPrefix = `${lastMinutePrefix}${SECONDS_DOT[second - minute * 60]!}`;
  return lastSecondPrefix;
}

/** "YYYY-MM-DDTHH:MM:" of a minute since the epoch. */
function minutePrefix(minute: number): string {
  const day = Math.floor(minute / 1_440);
  let dayPrefix = days.get(day);
  if (dayPrefix === undefined) {
    dayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    days.set(day, dayPrefix);
  }
  const rest = minute - day * 1_440;
  const h = Math.floor(rest / 60);
  return `${dayPrefix}${pad2(h)}:${pad2(rest - h * 60)}:`;
}
