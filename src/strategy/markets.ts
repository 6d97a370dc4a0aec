import { z } from 'zod';
import type { GameState, MarketBook } from '../market-model/types.ts';
import type { Outcome1x2, Selection } from '../markets/types.ts';

/**
 * Which books of a game a strategy quotes. Tokens: `moneyline`, `mainSpread` and
 * `mainTotal` (the game's current main lines, so the quote follows the line when it
 * moves), `all` (every book the game has), or an explicit book key such as `spread:-3.5`,
 * `total:8.5`, `moneyline1x2:draw`.
 */
const MARKET_TOKEN =
  /^(moneyline|mainSpread|mainTotal|all|spread:-?\d+(\.\d+)?|total:\d+(\.\d+)?|moneyline1x2:(home|away|draw))$/;

export const marketsParam = (defaults: readonly string[]) =>
  z
    .array(
      z
        .string()
        .regex(
          MARKET_TOKEN,
          'moneyline | mainSpread | mainTotal | all | spread:<home line> | total:<line> | moneyline1x2:<home|away|draw>',
        ),
    )
    .default([...defaults])
    .describe(
      "Books to quote: moneyline, mainSpread, mainTotal (the game's main lines), all (every book of the " +
        'game), or book keys such as spread:-3.5, total:8.5, moneyline1x2:draw',
    );

/** Book keys selected by `tokens` on `game`, deduplicated, in token order. */
export function selectedBookKeys(game: GameState, tokens: readonly string[]): string[] {
  const keys: string[] = [];
  for (const t of tokens) {
    if (t === 'all') {
      // A game's book keys are distinct already: only keys of earlier tokens can repeat.
      const fresh = keys.length === 0;
      for (const k of game.books.keys()) if (fresh || !keys.includes(k)) keys.push(k);
    } else if (t === 'mainSpread') {
      if (game.mainHomeSpread !== null) addKey(keys, lineKey(spreadKeys, 'spread:', game.mainHomeSpread + 0));
    } else if (t === 'mainTotal') {
      if (game.mainTotal !== null) addKey(keys, lineKey(totalKeys, 'total:', game.mainTotal));
    } else addKey(keys, t);
  }
  return keys;
}

/**
 * The book key of a main line, kept per line: a game's main lines take few values, and a
 * quoting strategy asks for them on every evaluation.
 */
const spreadKeys = new Map<number, string>();
const totalKeys = new Map<number, string>();

function lineKey(known: Map<number, string>, prefix: string, line: number): string {
  let k = known.get(line);
  if (k === undefined) known.set(line, (k = `${prefix}${line}`));
  return k;
}

function addKey(keys: string[], k: string): void {
  if (!keys.includes(k)) keys.push(k);
}

/** The two sides of a book, side 0 first. */
export const BOOK_SIDES = [0, 1] as const;

/** The selection a taker backs on side `k` of a book: the book's own when listed, else derived from its key. */
export function sideSelection(book: MarketBook | undefined, key: string, k: 0 | 1): Selection | null {
  return book !== undefined ? book.sides[k].taker : (selectionsOfKey(key)?.[k] ?? null);
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
