import { WebSocket } from 'ws';
import { formatMoney } from '../money/rounding.ts';
import { startSimulator } from '../sim/server.ts';
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

interface Json {
  [k: string]: any;
}

/**
 * The main job until the runtime lands: start the simulator exchange in-process with its
 * synthetic market, then act as a client that knows only the contract — log in over REST,
 * watch the price and user feeds over WebSockets, read the book, take an offer, and see the
 * fill come back on the user feed.
 */
export async function runMarketTour(o: MarketTourOptions): Promise<void> {
  const sim = await startSimulator({ seed: o.seed, admin: true, traders: true, time: realTime({ speed: o.speed }) });
  const base = sim.url;
  const call = async (method: string, path: string, body?: unknown, token?: string): Promise<Json> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: token } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const sockets: WebSocket[] = [];
  try {
    o.out(`simulator exchange on ${base} (seed ${o.seed}, ${o.speed}× speed, synthetic market on)`);
    await call('POST', '/admin/users', { username: 'demo', password: 'demo-password', balance: 5000 });
    const login = await call('POST', '/user/login', { username: 'demo', password: 'demo-password' });
    const token: string = login.data.user.auth;
    o.out(`logged in as demo (token ${token.length} hex characters, kept in memory only)`);

    const counts = { orderUpdate: 0, gameUpdate: 0, matchedVolumeUpdate: 0, other: 0, user: 0 };
    const wsBase = base.replace(/^http/, 'ws');
    const price = new WebSocket(`${wsBase}/price-stream`, { headers: { authorization: token }, perMessageDeflate: false });
    const user = new WebSocket(`${wsBase}/v2/user`, { headers: { authorization: token }, perMessageDeflate: false });
    sockets.push(price, user);
    const userMessages: Json[] = [];
    price.on('message', (data) => {
      try {
        const [type] = JSON.parse(String(data)) as [string, unknown];
        if (type === 'orderUpdate' || type === 'gameUpdate' || type === 'matchedVolumeUpdate') counts[type]++;
        else counts.other++;
      } catch {
        counts.other++;
      }
    });
    user.on('message', (data) => {
      counts.user++;
      try {
        userMessages.push(JSON.parse(String(data)) as Json);
      } catch {
        /* counted */
      }
    });
    await Promise.all([price, user].map((ws) => new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))));
    o.out('price feed and user feed connected');

    const started = Date.now();
    const tick = async () => {
      const games = (await call('GET', '/exchange/v2/getGames', undefined, token)).data.games as Json[];
      const live = games.filter((g) => g.live).length;
      const elapsed = (Date.now() - started) / 1000;
      o.status(
        `t+${elapsed.toFixed(0).padStart(3)}s  games ${games.length} (${live} live)  price feed ${counts.orderUpdate} book / ${counts.gameUpdate} game / ${counts.matchedVolumeUpdate} volume msgs  (${Math.round((counts.orderUpdate + counts.gameUpdate + counts.matchedVolumeUpdate) / Math.max(1, elapsed))}/s)`,
      );
    };

    let took: string | null = null;
    const deadline = started + o.seconds * 1000;
    while (Date.now() < deadline) {
      await tick();
      if (took === null && Date.now() - started > Math.min(8000, o.seconds * 400)) took = await takeAnOffer(call, token, o.out);
      await new Promise((r) => setTimeout(r, 1000));
    }
    o.status('');

    const bets = (await call('GET', '/user/getMatchedBets', undefined, token)).data.matchedBets as Json[];
    const fills = userMessages.filter((m) => m.matched);
    o.out('');
    o.out(`feeds: ${counts.orderUpdate} orderUpdate, ${counts.gameUpdate} gameUpdate, ${counts.matchedVolumeUpdate} matchedVolumeUpdate; ${counts.user} user-feed messages (${fills.length} fills)`);
    for (const b of bets.slice(0, 3)) {
      const liability = (await call('GET', `/user/getGameLiability?gameID=${b.game.id}`, undefined, token)).data.liability as number;
      o.out(`open bet ${b.txID}: ${b.type} ${b.game.participants[0].shortName} @ ${b.game.participants[1].shortName}, odds ${b.odds}, risk ${b.risk}, win ${b.win}; worst-case liability on the game ${formatMoney(liability)}`);
    }
    if (bets.length === 0) o.out('no open bets: the offer we took was gone before our order arrived (that happens in a moving market)');
  } finally {
    for (const ws of sockets) ws.terminate();
    await sim.close();
  }
}

/** Find the best moneyline offer on a pre-game game and take a small stake of it with fillAndKill. */
async function takeAnOffer(call: (m: string, p: string, b?: unknown, t?: string) => Promise<Json>, token: string, out: (line: string) => void): Promise<string> {
  const games = (await call('GET', '/exchange/v2/getGames', undefined, token)).data.games as Json[];
  for (const g of games.filter((x) => !x.live && !x.ended)) {
    const book = (await call('GET', `/exchange/v2/getOrderbook?gameID=${g.id}`, undefined, token)).data.games[0] as Json | undefined;
    const offers = [...((book?.homeMoneylines as Json[]) ?? []), ...((book?.awayMoneylines as Json[]) ?? [])];
    const best = offers.sort((a, b) => b.sumUntaken - a.sumUntaken)[0];
    if (!best || best.sumUntaken < 5) continue;
    const stake = Math.min(25, Math.floor(best.sumUntaken));
    const placed = await call('POST', '/session/v3/place', { orders: [{ gameID: g.id, type: 'moneyline', side: best.participantID, odds: best.odds, bet: stake, orderType: 'fillAndKill', userReference: 'demo-1' }] }, token);
    const entry = placed.data.createdSessions[0] as Json;
    const team = g.participants.find((p: Json) => p.id === best.participantID)?.longName ?? best.participantID;
    if (entry.error) {
      out(`tried to take ${stake} on ${team} at ${best.odds}: ${entry.errorType} (${entry.error})`);
      return 'rejected';
    }
    const m = (entry.matched as Json[])[0];
    out(m ? `took ${formatMoney(m.amount)} on ${team} at ${m.odds > 0 ? '+' : ''}${m.odds}: win ${formatMoney(m.win)} after commission, risk ${formatMoney(m.risk)} (txID ${m.txID})` : `offer on ${team} was gone`);
    return 'taken';
  }
  out('no offer big enough to take yet');
  return 'none';
}
