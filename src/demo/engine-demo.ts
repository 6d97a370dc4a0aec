import { fromProbability, invertOdds } from '../odds/american.ts';
import { formatMoney } from '../money/rounding.ts';
import { MatchingEngine, createIdGenerator, type PlaceInput } from '../engine/index.ts';
import { ManualClock } from '../shared/clock.ts';
import { createRandom } from '../shared/random.ts';

export interface EngineDemoOptions {
  readonly seed: number;
  readonly orders: number;
}

const LEAGUES = [
  { league: 'NBA', sport: 'basketball', teams: ['Lakers', 'Celtics', 'Bulls', 'Knicks'] },
  { league: 'NFL', sport: 'football', teams: ['Chiefs', 'Eagles', 'Bills', 'Lions'] },
  { league: 'EPL', sport: 'soccer', teams: ['Arsenal', 'Chelsea', 'Everton', 'Fulham'] },
] as const;

/**
 * A deterministic market on the engine replica: makers quote around a drifting fair price,
 * takers cross, games settle from scores. Returns the report lines. Until the simulator
 * and runtime land, this is what `npm start` shows.
 */
export function runEngineDemo({ seed, orders }: EngineDemoOptions): string[] {
  const random = createRandom(seed);
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 18));
  const engine = new MatchingEngine({ clock, ids: createIdGenerator(seed) });
  const users = ['maker-a', 'maker-b', 'taker-x', 'taker-y'];
  for (const id of users) engine.addUser({ id, balance: 1_000_000, commissionRate: 0.01 });
  const hex = (tag: number, n: number) => tag.toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');

  const games: { id: string; away: string; home: string; soccer: boolean; fair: number; name: string }[] = [];
  let n = 0;
  for (const l of LEAGUES) {
    for (let i = 0; i < l.teams.length; i += 2) {
      const g = {
        id: hex(0x9a, n),
        away: hex(0x9b, n),
        home: hex(0x9c, n),
        soccer: l.sport === 'soccer',
        fair: 0.35 + random.float() * 0.3,
        name: `${l.teams[i]} @ ${l.teams[i + 1]}`,
      };
      engine.addGame({
        id: g.id,
        league: l.league,
        sport: l.sport,
        participants: [
          { id: g.away, longName: l.teams[i]!, shortName: l.teams[i]!.slice(0, 3).toUpperCase() },
          { id: g.home, longName: l.teams[i + 1]!, shortName: l.teams[i + 1]!.slice(0, 3).toUpperCase() },
        ],
        start: clock.now() + 3_600_000,
      });
      games.push(g);
      n++;
    }
  }

  let placed = 0;
  let failed = 0;
  let fills = 0;
  let takerVolume = 0;
  let commission = 0;
  for (let i = 0; i < orders; i++) {
    clock.advance(100);
    const g = random.pick(games);
    g.fair = Math.min(0.85, Math.max(0.15, g.fair + random.normal() * 0.002));
    const homeProb = g.fair;
    let input: PlaceInput;
    let user: string;
    if (random.chance(0.75)) {
      // A maker backs one side at a payout above fair (implied probability below it): that
      // gap is its margin, and what a taker on the other side pays for immediacy.
      user = random.pick(['maker-a', 'maker-b']);
      const margin = 0.01 + random.float() * 0.03;
      const backHome = random.chance(0.5);
      const p = backHome ? homeProb : 1 - homeProb;
      const odds = fromProbability(Math.max(0.03, p - margin), 'lower-payout');
      input = g.soccer
        ? {
            gameID: g.id,
            type: 'moneyline1x2',
            market: g.home,
            side: backHome ? 'yes' : 'no',
            odds,
            bet: random.int(20, 400),
            orderType: 'post',
          }
        : {
            gameID: g.id,
            type: 'moneyline',
            side: backHome ? g.home : g.away,
            odds,
            bet: random.int(20, 400),
            orderType: 'post',
          };
    } else {
      // A taker accepts up to 5 points of implied probability over fair.
      user = random.pick(['taker-x', 'taker-y']);
      const backHome = random.chance(0.5);
      const p = backHome ? homeProb : 1 - homeProb;
      const odds = fromProbability(Math.min(0.97, p + 0.05), 'lower-payout');
      input = g.soccer
        ? {
            gameID: g.id,
            type: 'moneyline1x2',
            market: g.home,
            side: backHome ? 'yes' : 'no',
            odds,
            bet: random.int(10, 150),
            orderType: 'fillAndKill',
          }
        : {
            gameID: g.id,
            type: 'moneyline',
            side: backHome ? g.home : g.away,
            odds,
            bet: random.int(10, 150),
            orderType: 'fillAndKill',
          };
    }
    const [entry] = engine.place(user, [input]);
    if (entry?.status === 'ok') {
      placed++;
      for (const m of entry.matched) {
        fills++;
        takerVolume += m.amount;
        commission += m.winWithoutCommission - m.win;
      }
    } else failed++;
  }

  const lines: string[] = [];
  lines.push(`linesmith engine demo — seed ${seed}, ${orders.toLocaleString('en-US')} orders on ${games.length} games`);
  lines.push(
    `accepted ${placed}, rejected ${failed} (post orders that would cross, fill-and-kill with nothing to take), fills ${fills}`,
  );
  lines.push(`taker volume ${formatMoney(takerVolume)}, commission at 1% on taker wins ${formatMoney(commission)}`);
  const shown = games[0]!;
  lines.push('');
  lines.push(`book of ${shown.name}, moneyline, as takers see it (best first):`);
  for (const [side, label] of [
    [0, 'home'],
    [1, 'away'],
  ] as const) {
    const listed = engine.bookSide(shown.id, 'moneyline', side).slice(0, 3);
    const text = listed.map(
      (l) =>
        `${l.listedOdds > 0 ? '+' : ''}${l.listedOdds} up to ${formatMoney(l.sumUntaken)} (maker ` +
        `${invertOdds(l.listedOdds) > 0 ? '+' : ''}${invertOdds(l.listedOdds)} risking ${formatMoney(l.order.remaining)})`,
    );
    lines.push(`  ${label}: ${text.join('; ') || 'empty'}`);
  }
  lines.push('');
  lines.push('worst-case liability per user on that game (exact over all scores):');
  for (const u of users) lines.push(`  ${u.padEnd(8)} ${formatMoney(engine.gameLiability(u, shown.id))}`);

  for (const g of games) {
    const margin = Math.round(random.normal() * 7 + (g.fair - 0.5) * 20);
    const base = g.soccer ? random.int(0, 2) : random.int(90, 110);
    const home = Math.max(0, base + Math.max(0, margin));
    const away = Math.max(0, base - Math.min(0, margin));
    engine.settleGame(g.id, { away, home });
  }
  lines.push('');
  lines.push('after settlement (balance change, graded rows):');
  for (const u of users) {
    const a = engine.account(u)!;
    lines.push(`  ${u.padEnd(8)} ${formatMoney(a.balance - 1_000_000).padStart(10)}  ${engine.grades(u).length} rows`);
  }
  return lines;
}
