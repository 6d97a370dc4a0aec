import type { MarketModel } from '../market-model/market-model.ts';
import type { OwnBook } from '../orders/own-book.ts';

/**
 * How long an ended game stays in the model after its last update: late messages about it
 * (the end itself, the last listings, a result) still find it.
 */
export const ENDED_GAME_RETENTION_MS = 15 * 60_000;

/** How often the runtime looks for ended games to forget. */
export const ENDED_GAME_SWEEP_MS = 60_000;

/**
 * Ended games nothing of ours depends on any more: over for `ENDED_GAME_RETENTION_MS`, no
 * live order of ours, and no fill waiting for its grade (an unsettled fill needs the game
 * for its participants and its mark to fair). The model can forget them; without that it
 * keeps every game it ever saw, books and all, and a long run grows without bound.
 */
export function forgettableGames(market: MarketModel, own: OwnBook, now: number): string[] {
  return [...market.endedBefore(now - ENDED_GAME_RETENTION_MS)].filter((id) => !own.holdsOpen(id));
}
