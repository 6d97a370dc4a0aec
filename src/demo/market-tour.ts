import { asyncScheduler } from 'rxjs';
import { ExchangeClient } from '../exchange/client.ts';
import type { UserFeedEvent } from '../exchange/socket/user-feed-events.ts';
import type { OrderbookGame } from '../exchange/schemas/exchange.ts';
import { formatMoney } from '../money/rounding.ts';
import { startSimulator } from '../sim/server.ts';
import { systemClock } from '../shared/clock.ts';
import { sleep } from '../shared/sleep.ts';
import { realTime } from '../shared/time.ts';

export interface MarketTourOptions {
  readonly seed: number;
  /** Wall-clock seconds to run. */
  readonly seconds: number;
  /** Exchange time runs this many times faster than wall time. */
  readonly speed: number;
  readonly out: (line: string) => void;
  /** Status line updates (a terminal rewrites one line; elsewhere every few seconds). */
  readonly status: (line: string) => void;
}

const signed = (odds: number) => (odds > 0 ? `+${odds}` : String(odds));

/**
 * The main job until the runtime lands: start the simulator exchange in-process with its
 * synthetic market, then use linesmith's exchange client as any strategy will: log in over
 * REST, follow the price and user feeds, read the book, take an offer, and see the fill
 * come back on the user feed, with the worst-case liability that results.
 */
export async function runMarketTour(o: MarketTourOptions): Promise<void> {
  const sim = await startSimulator({ seed: o.seed, admin: true, traders: true, time: realTime({ speed: o.speed }) });
  const client = new ExchangeClient({
    baseUrl: sim.url,
    credentials: async () => ({ username: 'demo', password: 'demo-password' }),
  });
  try {
    o.out(`simulator exchange on ${sim.url} (seed ${o.seed}, ${o.speed}× speed, synthetic market on)`);
    await fetch(`${sim.url}/admin/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo-password', balance: 5000 }),
    });

    const counts = { orderUpdate: 0, gameUpdate: 0, matchedVolumeUpdate: 0 };
    const userEvents: UserFeedEvent[] = [];
    client.priceFeed.events$.subscribe((e) => counts[e.type]++);
    client.userFeed.events$.subscribe((e) => userEvents.push(e));
    await client.start();
    const user = client.rest.session.user!;
    o.out(`logged in as ${user.username} (the token stays in memory; logs redact it)`);

    const started = systemClock.now();
    let took = false;
    while (systemClock.now() - started < o.seconds * 1000) {
      const games = await client.rest.getGames();
      const elapsed = (systemClock.now() - started) / 1000;
      const msgs = counts.orderUpdate + counts.gameUpdate + counts.matchedVolumeUpdate;
      o.status(
        `t+${elapsed.toFixed(0).padStart(3)}s  games ${games.length} (${games.filter((g) => g.live).length} ` +
          `live)  price feed ${counts.orderUpdate} book / ${counts.gameUpdate} game / ` +
          `${counts.matchedVolumeUpdate} volume msgs (${Math.round(msgs / Math.max(1, elapsed))}/s)  user feed ${userEvents.length}`,
      );
      if (!took && elapsed > Math.min(8, o.seconds * 0.4))
        took = await takeAnOffer(
          client,
          games.filter((g) => !g.live && !g.ended).map((g) => g.id),
          o.out,
        );
      await sleep(1000, asyncScheduler);
    }
    o.status('');

    const fills = userEvents.filter((e) => e.type === 'takerFill' || e.type === 'makerFill');
    o.out('');
    o.out(
      `feeds: ${counts.orderUpdate} orderUpdate, ${counts.gameUpdate} gameUpdate, ` +
        `${counts.matchedVolumeUpdate} matchedVolumeUpdate; ${userEvents.length} user-feed events ` +
        `(${fills.length} fills), cursor ${client.userFeed.cursor ?? '(none)'}`,
    );
    const bets = await client.rest.getMatchedBets();
    for (const b of bets.slice(0, 3)) {
      const liability = await client.rest.getGameLiability(b.game!.id);
      o.out(
        `open bet ${b.txID}: ${b.type} ${b.game!.participants[0]!.shortName} @ ` +
          `${b.game!.participants[1]!.shortName}, odds ${signed(b.odds)}, risk ${formatMoney(b.risk)}, win ` +
          `${formatMoney(b.win)}; worst-case liability on the game ${formatMoney(liability)}`,
      );
    }
    if (bets.length === 0)
      o.out('no open bets: the offer we took was gone before our order arrived (that happens in a moving market)');
    o.out(
      `REST: ${client.rest.stats.calls} calls, ${client.rest.stats.retries} retries, ${client.rest.stats.rateLimited} rate-limited`,
    );
  } finally {
    await client.close();
    await sim.close();
  }
}

/** The deepest moneyline offer on a pre-game game, taken with a small fillAndKill. */
async function takeAnOffer(
  client: ExchangeClient,
  gameIDs: readonly string[],
  out: (line: string) => void,
): Promise<boolean> {
  for (const id of gameIDs) {
    const [book]: OrderbookGame[] = await client.rest.getOrderbook({ gameID: id });
    if (!book) continue;
    const best = [...book.homeMoneylines, ...book.awayMoneylines].sort((a, b) => b.sumUntaken - a.sumUntaken)[0];
    if (!best || best.sumUntaken < 5 || !best.participantID) continue;
    const stake = Math.min(25, Math.floor(best.sumUntaken));
    const team = book.participants.find((p) => p.id === best.participantID)?.longName ?? best.participantID;
    const [entry] = await client.rest.place([
      {
        gameID: id,
        type: 'moneyline',
        side: best.participantID,
        odds: best.odds,
        bet: stake,
        orderType: 'fillAndKill',
      },
    ]);
    if (entry?.status === 'accepted' && entry.matched[0]) {
      const m = entry.matched[0];
      out(
        `took ${formatMoney(m.amount)} on ${team} at ${signed(m.odds)}: win ${formatMoney(m.win)} after ` +
          `commission, risk ${formatMoney(m.risk)} (txID ${m.txID}, userReference ${entry.userReference})`,
      );
    } else if (entry?.status === 'rejected') {
      out(`tried to take ${stake} on ${team} at ${signed(best.odds)}: ${entry.errorType} (${entry.error})`);
    } else {
      out(`offer on ${team} was gone (${entry?.status})`);
    }
    return true;
  }
  out('no offer big enough to take yet');
  return false;
}
