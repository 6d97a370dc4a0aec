import type { PlaceEntry, PlaceFailure, PlaceInput, PlaceSuccess } from '../../src/engine/types.ts';

/** Ids the engine unit tests share: an NBA game and a soccer game with their participants. */
export const G = 'aa0000000000000000000001';
export const SOCCER = 'aa0000000000000000000002';
export const AWAY = 'bb0000000000000000000001';
export const HOME = 'bb0000000000000000000002';
export const S_AWAY = 'bb0000000000000000000003';
export const S_HOME = 'bb0000000000000000000004';
export const ML = 'moneyline';

/** A moneyline order on G backing `team`. */
export const ml = (
  team: 'home' | 'away',
  odds: number,
  bet: number,
  extra: Record<string, unknown> = {},
): PlaceInput => ({
  gameID: G,
  type: 'moneyline',
  side: team === 'home' ? HOME : AWAY,
  odds,
  bet,
  ...extra,
});

export function ok(e: PlaceEntry | undefined): PlaceSuccess {
  if (!e || e.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(e)}`);
  return e;
}

export function fail(e: PlaceEntry | undefined): PlaceFailure {
  if (!e || e.status !== 'error') throw new Error(`expected error, got ${JSON.stringify(e)}`);
  return e;
}
