import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, ListedOrder } from '../../engine/types.ts';
import type { Selection } from '../../markets/types.ts';
import { fromDecimal, payout } from '../../odds/american.ts';
import { listedSides } from '../render/book.ts';
import { renderGame, type WireGame } from '../render/game.ts';
import { mainLines } from './orderbook.ts';

/** The stake an average price sweeps (the exchange's "at least $500 of liquidity"). */
export const AVERAGE_PRICE_SWEEP = 500;

/** Prices a taker of one side gets; null where the side has no orders. */
interface SidePrices {
  /** Listed odds of the top order. */
  readonly best: number | null;
  /** The top price with the taker's commission taken off the win. */
  readonly bestWithCommission: number | null;
  /** Stake-weighted price of sweeping AVERAGE_PRICE_SWEEP (or all there is, if less). */
  readonly average: number | null;
  /** The worst listed price that sweep reaches: the limit to send to fill it. */
  readonly priceLimit: number | null;
  /** Whole units of stake the top price level can take. */
  readonly maxBet: number;
}

const NONE: SidePrices = { best: null, bestWithCommission: null, average: null, priceLimit: null, maxBet: 0 };

/** American odds of a payout per unit staked (decimal odds − 1). */
const americanOfPayout = (p: number): number => fromDecimal(1 + p);

export function sidePrices(orders: readonly ListedOrder[], commissionRate: number): SidePrices {
  const top = orders[0];
  if (!top) return NONE;
  let stake = 0;
  let win = 0;
  let limit = top.listedOdds;
  let atBest = 0;
  for (const o of orders) {
    if (o.listedOdds === top.listedOdds) atBest += o.sumUntaken;
    if (stake >= AVERAGE_PRICE_SWEEP) continue;
    const take = Math.min(o.sumUntaken, AVERAGE_PRICE_SWEEP - stake);
    stake += take;
    win += take * payout(o.listedOdds);
    limit = o.listedOdds;
  }
  return {
    best: top.listedOdds,
    bestWithCommission: americanOfPayout(payout(top.listedOdds) * (1 - commissionRate)),
    average: stake > 0 ? americanOfPayout(win / stake) : null,
    priceLimit: limit,
    maxBet: Math.floor(atBest),
  };
}

function same(a: Selection, b: Selection): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'moneyline' && b.type === 'moneyline') return a.team === b.team;
  if (a.type === 'spread' && b.type === 'spread') return a.team === b.team && a.line === b.line;
  if (a.type === 'total' && b.type === 'total') return a.ou === b.ou && a.line === b.line;
  return false;
}

export type WireAveragePriceGame = WireGame & {
  matchedVolume: number;
  mainHomeSpread: number | null;
  mainAwaySpread: number | null;
  mainTotal: number | null;
  odds: Record<string, number | null>;
};

/**
 * `GET /exchange/getOddsForAveragePrice` game: the game without its collections, its main
 * lines and, per moneyline side and the main spread and total, the best, commission-
 * adjusted, average and limit prices and the stake the top price can take.
 */
export function renderAveragePriceGame(
  engine: MatchingEngine,
  game: EngineGame,
  commissionRate: number,
): WireAveragePriceGame {
  const main = mainLines(engine, game);
  const sides = listedSides(engine, game);
  const pricesOf = (s: Selection | null): SidePrices => {
    if (s === null) return NONE;
    const side = sides.find((x) => same(x.selection, s));
    return side ? sidePrices(side.orders, commissionRate) : NONE;
  };
  const homeMl = pricesOf({ type: 'moneyline', team: 'home' });
  const awayMl = pricesOf({ type: 'moneyline', team: 'away' });
  const homeSp = pricesOf(
    main.mainHomeSpread === null ? null : { type: 'spread', team: 'home', line: main.mainHomeSpread },
  );
  const awaySp = pricesOf(
    main.mainAwaySpread === null ? null : { type: 'spread', team: 'away', line: main.mainAwaySpread },
  );
  const over = pricesOf(main.mainTotal === null ? null : { type: 'total', ou: 'over', line: main.mainTotal });
  const under = pricesOf(main.mainTotal === null ? null : { type: 'total', ou: 'under', line: main.mainTotal });
  const block = (name: string, p: SidePrices) => ({
    [`average${name}`]: p.average,
    [`best${name}`]: p.best,
    [`best${name}WithCommission`]: p.bestWithCommission,
    [`best${name}PriceLimit`]: p.priceLimit,
  });
  return {
    ...renderGame(game),
    matchedVolume: engine.matchedVolume(game.id),
    ...main,
    odds: {
      ...block('HomeMoneyline', homeMl),
      ...block('AwayMoneyline', awayMl),
      ...block('HomeSpread', homeSp),
      mainHomeSpread: main.mainHomeSpread,
      ...block('AwaySpread', awaySp),
      mainAwaySpread: main.mainAwaySpread,
      ...block('Over', over),
      ...block('Under', under),
      mainTotal: main.mainTotal,
      maxMoneyLineBet: Math.max(homeMl.maxBet, awayMl.maxBet),
      homeMoneylineMaxBet: homeMl.maxBet,
      awayMoneylineMaxBet: awayMl.maxBet,
      maxTotalBet: Math.max(over.maxBet, under.maxBet),
      maxOverBet: over.maxBet,
      maxUnderBet: under.maxBet,
      maxSpreadBet: Math.max(homeSp.maxBet, awaySp.maxBet),
      maxHomeSpreadBet: homeSp.maxBet,
      maxAwaySpreadBet: awaySp.maxBet,
    },
  };
}
