const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on the year takes more than four digits. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * The date parts ("YYYY-MM-DDT") of the last two days spelled: consecutive instants share
 * one, and a message spells two days by turns (the clock's now and its game's start).
 */
let lastDay = Number.NaN;
let lastDayPrefix = '';
let otherDay = Number.NaN;
let otherDayPrefix = '';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** ISO 8601 in UTC with a trailing Z, as the contract spells every timestamp. */
export function iso(ms: number): string {
  // Hosts spell many instants a run (every message carries the clock's now): the time of
  // day is plain arithmetic, and only a new day goes through Date. The same string as
  // Date#toISOString, which truncates fractional milliseconds; other instants (before
  // 1970, beyond year 9999, invalid) take Date's own path.
  if (!(ms >= 0 && ms < YEAR_10000_MS)) return new Date(ms).toISOString();
  const t = Math.floor(ms);
  const day = Math.floor(t / DAY_MS);
  if (day !== lastDay) {
    const prefix = day === otherDay ? otherDayPrefix : new Date(day * DAY_MS).toISOString().slice(0, 11);
    otherDay = lastDay;
    otherDayPrefix = lastDayPrefix;
    lastDay = day;
    lastDayPrefix = prefix;
  }
  let rest = t - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  rest -= s * 1000;
  return `${lastDayPrefix}${pad2(h)}:${pad2(m)}:${pad2(s)}.${pad3(rest)}Z`;
}
