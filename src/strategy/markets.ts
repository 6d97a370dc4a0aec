import { z } from 'zod';
import type { GameState } from '../book/types.ts';
import type { Outcome1x2, Selection } from '../markets/types.ts';

/**
 * Which books of a game a strategy quotes. Tokens: `moneyline`, `mainSpread` and
 * `mainTotal` (the game's current main lines, so the quote follows the line when it
 * moves), `all` (every book the game has), or an explicit book key such as `spread:-3.5`,
 * `total:8.5`, `moneyline1x2:draw`.
 */
const MARKET_TOKEN = /^(moneyline|mainSpread|mainTotal|all|spread:-?\d+(\.\d+)?|total:\d+(\.\d+)?|moneyline1x2:(home|away|draw))$/;

export const marketsParam = (defaults: readonly string[]) =>
  z
    .array(z.string().regex(MARKET_TOKEN, 'moneyline | mainSpread | mainTotal | all | spread:<home line> | total:<line> | moneyline1x2:<home|away|draw>'))
    .default([...defaults])
    .describe(
      'Books to quote: moneyline, mainSpread, mainTotal (the game\'s main lines), all (every book of the game), or book keys such as spread:-3.5, total:8.5, moneyline1x2:draw',
    );

/** Book keys selected by `tokens` on `game`, deduplicated, in token order. */
export function selectedBookKeys(game: GameState, tokens: readonly string[]): string[] {
  const keys: string[] = [];
  const add = (k: string): void => {
    if (!keys.includes(k)) keys.push(k);
  };
  for (const t of tokens) {
    if (t === 'all') for (const k of game.books.keys()) add(k);
    else if (t === 'mainSpread') {
      if (game.mainHomeSpread !== null) add(`spread:${game.mainHomeSpread + 0}`);
    } else if (t === 'mainTotal') {
      if (game.mainTotal !== null) add(`total:${game.mainTotal}`);
    } else add(t);
  }
  return keys;
}

/** The selections backed on side 0 and side 1 of a book key (inverse of bookKeyOf / sideIndexOf). */
export function selectionsOfKey(key: string): readonly [Selection, Selection] | null {
  const [type, rest] = key.split(':', 2) as [string, string | undefined];
  if (type === 'moneyline' && rest === undefined) {
    return [
      { type: 'moneyline', team: 'home' },
      { type: 'moneyline', team: 'away' },
    ];
  }
  if (rest === undefined) return null;
  if (type === 'moneyline1x2') {
    if (rest !== 'home' && rest !== 'away' && rest !== 'draw') return null;
    const outcome: Outcome1x2 = rest;
    return [
      { type: 'moneyline1x2', outcome, yes: true },
      { type: 'moneyline1x2', outcome, yes: false },
    ];
  }
  const line = Number(rest);
  if (rest === '' || !Number.isFinite(line)) return null;
  if (type === 'spread') {
    return [
      { type: 'spread', team: 'home', line: line + 0 },
      { type: 'spread', team: 'away', line: -line + 0 },
    ];
  }
  if (type === 'total') {
    return [
      { type: 'total', ou: 'over', line },
      { type: 'total', ou: 'under', line },
    ];
  }
  return null;
}

/** Side selections of a key on a game: the book's own when it exists, else derived from the key. */
export function sideSelections(game: GameState, key: string): readonly [Selection, Selection] | null {
  const book = game.books.get(key);
  return book ? [book.sides[0].taker, book.sides[1].taker] : selectionsOfKey(key);
}
