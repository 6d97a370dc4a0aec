import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

/**
 * A walk through the contract as an outside client: the simulator runs as a child process
 * (`linesmith sim --manual-clock --admin --no-traders`) and this file talks to it only
 * over HTTP (global fetch) and WebSockets (`ws`), the admin API included. Nothing of the
 * simulator is imported. Expected money and outcomes are computed here from the contract's
 * formulas (feeds-and-semantics §4, exchange-api §2.7), not read back from the server.
 *
 * The steps share one simulator and run in order; a failing step makes the later ones fail.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const URL_LINE = /http:\/\/127\.0\.0\.1:\d+/;
const HEX24 = /^[0-9a-f]{24}$/;
const TOKEN = /^[0-9a-f]{256}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const MONEY_STRING = /^-?\d+\.\d{2}$/;
const ENVELOPE_KEYS = [
  'matched',
  'unmatched',
  'origin',
  'gameID',
  'parentGameID',
  'eventName',
  'league',
  'sport',
  'live',
  'start',
  'awayRotationNumber',
  'platform',
  'createdAt',
  'messageID',
].sort();

const MAKER_RATE = 0.01;
const TAKER_RATE = 0.02;
const NBA_START = '2026-01-01T05:00:00.000Z';
const EPL_START = '2026-01-01T06:00:00.000Z';
const BULK = 120;

// ------------------------------------------------------------------ contract arithmetic

type Outcome = 'winner' | 'loser' | 'half-win' | 'half-loss' | 'refunded';
type Sel =
  | { readonly type: 'moneyline'; readonly team: 'home' | 'away' }
  | { readonly type: 'spread'; readonly team: 'home' | 'away'; readonly line: number }
  | { readonly type: 'total'; readonly ou: 'over' | 'under'; readonly line: number }
  | { readonly type: 'moneyline1x2'; readonly outcome: 'home' | 'away' | 'draw'; readonly yes: boolean };
interface Score {
  readonly away: number;
  readonly home: number;
}

const payout = (odds: number) => (odds > 0 ? odds / 100 : 100 / -odds);

/** feeds-and-semantics §4. */
function money(amount: number, odds: number, rate: number) {
  const wwc = amount * payout(odds);
  return {
    wwc,
    win: wwc * (1 - rate),
    risk: amount + rate * Math.min(amount, wwc),
    feeOnWin: rate * wwc,
    feeOnLoss: rate * Math.min(amount, wwc),
  };
}

/** A threshold bet ahead of its line by `v`; quarter lines split the stake over v ± 0.25. */
function gradeValue(v: number, line: number): Outcome {
  const one = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0);
  if (Math.abs(line * 4) % 2 !== 1) return v > 0 ? 'winner' : v < 0 ? 'loser' : 'refunded';
  const sum = one(v - 0.25) + one(v + 0.25);
  return sum === 2 ? 'winner' : sum === 1 ? 'half-win' : sum === -1 ? 'half-loss' : sum === -2 ? 'loser' : 'refunded';
}

function outcomeOf(sel: Sel, score: Score): Outcome {
  const d = score.home - score.away;
  switch (sel.type) {
    case 'moneyline': {
      const m = sel.team === 'home' ? d : -d;
      return m > 0 ? 'winner' : m < 0 ? 'loser' : 'refunded';
    }
    case 'spread':
      return gradeValue((sel.team === 'home' ? d : -d) + sel.line, sel.line);
    case 'total': {
      const s = score.home + score.away;
      return gradeValue(sel.ou === 'over' ? s - sel.line : sel.line - s, sel.line);
    }
    case 'moneyline1x2': {
      const happened = sel.outcome === 'home' ? d > 0 : sel.outcome === 'away' ? d < 0 : d === 0;
      return happened === sel.yes ? 'winner' : 'loser';
    }
  }
}

function opposite(sel: Sel): Sel {
  switch (sel.type) {
    case 'moneyline':
      return { type: 'moneyline', team: sel.team === 'home' ? 'away' : 'home' };
    case 'spread':
      return { type: 'spread', team: sel.team === 'home' ? 'away' : 'home', line: -sel.line };
    case 'total':
      return { type: 'total', ou: sel.ou === 'over' ? 'under' : 'over', line: sel.line };
    case 'moneyline1x2':
      return { type: 'moneyline1x2', outcome: sel.outcome, yes: !sel.yes };
  }
}

/** Signed P&L and fee of a graded row (exchange-api §2.7 `result`, `fee`). */
function settled(amount: number, odds: number, rate: number, outcome: Outcome): { result: number; fee: number } {
  const m = money(amount, odds, rate);
  switch (outcome) {
    case 'winner':
      return { result: m.win, fee: m.feeOnWin };
    case 'loser':
      return { result: -m.risk, fee: m.feeOnLoss };
    case 'half-win':
      return { result: m.win / 2, fee: m.feeOnWin / 2 };
    case 'half-loss':
      return { result: -m.risk / 2, fee: m.feeOnLoss / 2 };
    case 'refunded':
      return { result: 0, fee: 0 };
  }
}

/** A 2-decimal money string equals `value` to the cent. */
function expectMoney(actual: unknown, value: number, what: string): void {
  expect(typeof actual, what).toBe('string');
  expect(actual as string, what).toMatch(MONEY_STRING);
  expect(Math.abs(Number(actual) - value), `${what}: ${String(actual)} vs ${value}`).toBeLessThanOrEqual(0.0051);
}

const messageIdParts = (id: string): [number, number] => {
  const m = /^(\d+)-(\d+)$/.exec(id);
  if (!m) throw new Error(`malformed messageID ${id}`);
  return [Number(m[1]), Number(m[2])];
};

// ------------------------------------------------------------------ transport

interface Res {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

let baseUrl = '';

async function http(
  method: string,
  path: string,
  opts: { token?: string; raw?: boolean; authorization?: string; body?: unknown } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  else if (opts.token !== undefined) headers.authorization = opts.raw ? opts.token : `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

async function ok(method: string, path: string, opts: Parameters<typeof http>[2] = {}): Promise<any> {
  const res = await http(method, path, opts);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** A WebSocket client that records every frame (parsed) and waits for one matching a predicate. */
class Feed {
  readonly messages: any[] = [];
  readonly closed: Promise<void>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.messages.push(JSON.parse(data.toString('utf8'))));
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
  }

  static open(path: string, token: string): Promise<Feed> {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, {
      headers: { authorization: token },
      perMessageDeflate: false,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Feed(ws)));
      ws.once('error', reject);
    });
  }

  /** The first message at an index after `after` matching `pred`. */
  async waitFor(
    what: string,
    pred: (m: any) => boolean,
    after = -1,
    timeoutMs = 3000,
  ): Promise<{ msg: any; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = after + 1; i < this.messages.length; i++)
        if (pred(this.messages[i])) return { msg: this.messages[i], index: i };
      if (Date.now() > deadline) throw new Error(`no feed message: ${what} (${this.messages.length} received)`);
      await sleep(5);
    }
  }
}

// ------------------------------------------------------------------ the walk's state

interface Fill {
  readonly txID: string;
  readonly game: 'nba' | 'epl';
  readonly takerSel: Sel;
  readonly amount: number;
  readonly odds: number;
  readonly takerRate: number;
  readonly postArb: boolean;
  readonly makerOrderID: string;
}

interface User {
  readonly id: string;
  readonly username: string;
  token: string;
}

interface Game {
  readonly id: string;
  readonly away: string;
  readonly home: string;
}

let child: ChildProcess | undefined;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let stderr = '';
let maker: User;
let taker: User;
let nba: Game;
let epl: Game;
let makerFeed: Feed;
let takerFeed: Feed;
let priceFeed: Feed;
let since = '';
const fills: Fill[] = [];
const walkCursor = new Map<string, string>();

/** Place a batch; every entry is returned (HTTP 200 even when entries fail). */
async function place(user: User, orders: Record<string, unknown>[]): Promise<any[]> {
  const body = await ok('POST', '/session/v3/place', { token: user.token, body: { orders } });
  expect(body.data.createdSessions).toHaveLength(orders.length);
  return body.data.createdSessions;
}

async function placeOne(user: User, order: Record<string, unknown>): Promise<any> {
  const [entry] = await place(user, [order]);
  return entry;
}

/** Record the fills of a taker's place entry, checking the money of each against §4. */
function recordFills(entry: any, game: 'nba' | 'epl', takerSel: Sel, orderType: string): Fill[] {
  expect(entry.error, JSON.stringify(entry)).toBeUndefined();
  const postArb = orderType === 'postArb';
  const rate = postArb ? 0 : TAKER_RATE;
  const out: Fill[] = [];
  for (const m of entry.matched) {
    expect(m.txID).toMatch(HEX24);
    expect(m.orderID).toMatch(HEX24);
    expect(m.wagerRequestID).toMatch(HEX24);
    const want = money(m.amount, m.odds, rate);
    expect(m.winWithoutCommission).toBeCloseTo(want.wwc, 6);
    expect(m.win).toBeCloseTo(want.win, 6);
    expect(m.risk).toBeCloseTo(want.risk, 6);
    const fill: Fill = {
      txID: m.txID,
      game,
      takerSel,
      amount: m.amount,
      odds: m.odds,
      takerRate: rate,
      postArb,
      makerOrderID: m.orderID,
    };
    out.push(fill);
    fills.push(fill);
  }
  return out;
}

/**
 * getGradedSince until hasMore is false, with the raw token. A 429 is answered as the
 * contract says (wait Retry-After, resend the same cursor); the clock is manual, so the
 * wait is an admin clock advance.
 */
async function walk(
  user: User,
  start: { since: string } | { cursor: string },
): Promise<{ rows: any[]; cursor: string; pages: number; settledThrough: string }> {
  const rows: any[] = [];
  let query =
    'since' in start ? `since=${encodeURIComponent(start.since)}` : `cursor=${encodeURIComponent(start.cursor)}`;
  let pages = 0;
  for (;;) {
    const res = await http('GET', `/user/v2/getGradedSince?${query}`, { token: user.token, raw: true });
    if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      await ok('POST', '/admin/clock', { body: { advanceMs: wait * 1000 } });
      continue;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    pages++;
    expect(d.graded.length).toBeLessThanOrEqual(100);
    expect(typeof d.cursor).toBe('string');
    expect(d.settledThrough).toMatch(ISO);
    rows.push(...d.graded);
    if (!d.hasMore) return { rows, cursor: d.cursor, pages, settledThrough: d.settledThrough };
    // A full page when more follow.
    expect(d.graded).toHaveLength(100);
    query = `cursor=${encodeURIComponent(d.cursor)}`;
  }
}

/**
 * The taker's feed message of a fill. Its matched.orderID names the maker's order that was
 * hit (feeds §8), as the place response does; the taker's own order is its wagerRequestID.
 */
function takerFillOf(txID: string): any {
  return takerFeed.messages.find((m) => m.matched?.txID === txID)?.matched;
}

/** Check one graded row against the fill it belongs to, from `who`'s side. */
function checkRow(
  row: any,
  fill: Fill,
  who: 'maker' | 'taker',
  score: Score,
  game: Game,
  makerAmount: number,
  makerOdds: number,
): void {
  const sel = who === 'taker' ? fill.takerSel : opposite(fill.takerSel);
  const outcome = outcomeOf(sel, score);
  const what = `${who} row ${fill.txID} (${JSON.stringify(sel)})`;
  expect(row.outcome, what).toBe(outcome);
  expect(row.origin, what).toBe(who === 'taker' ? 'wager' : 'offer');
  expect(row.graded, what).toBe(true);
  expect(row.closed, what).toBe(false);
  expect(row.cancelled, what).toBe(false);
  expect(row.type, what).toBe(fill.takerSel.type);
  expect(row.game.id, what).toBe(game.id);
  expect(row.settledAt, what).toMatch(ISO);
  expect(row.settledAt > since, what).toBe(true);
  expect(row.id, what).toMatch(HEX24);
  if (who === 'maker') expect(row.id, what).toBe(fill.makerOrderID);
  else {
    const taken = takerFillOf(fill.txID);
    expect(taken.orderID, what).toBe(fill.makerOrderID);
    expect(row.id, what).not.toBe(fill.makerOrderID);
    expect(row.wagerRequestID, what).toBe(taken.wagerRequestID);
  }
  const [amount, odds, rate] = who === 'taker' ? [fill.amount, fill.odds, fill.takerRate] : [makerAmount, makerOdds, 0];
  expect(row.bet, what).toBeCloseTo(amount, 6);
  expect(row.odds, what).toBe(odds);
  const want = settled(amount, odds, rate, outcome);
  expectMoney(row.result, want.result, `${what} result`);
  expectMoney(row.fee, want.fee, `${what} fee`);
  expectMoney(row.risk, money(amount, odds, rate).risk, `${what} risk`);
  if (fill.postArb && who === 'taker') expect(row.isPostArb, what).toBe(true);
  else expect('isPostArb' in row, what).toBe(false);
}

// ------------------------------------------------------------------ lifecycle

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [
      'bin/linesmith.js',
      'sim',
      '--port',
      '0',
      '--seed',
      '5',
      '--no-traders',
      '--admin',
      '--manual-clock',
      '--log-level',
      'warn',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    },
  );
  const c = child;
  exited = new Promise((resolve) => c.once('exit', (code, signal) => resolve({ code, signal })));
  let out = '';
  c.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  c.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let gone = false;
  void exited.then(() => (gone = true));
  for (let waited = 0; ; waited += 20) {
    const m = URL_LINE.exec(out);
    if (m) {
      baseUrl = m[0];
      break;
    }
    if (gone || waited > 20_000) throw new Error(`simulator did not start:\n${stderr}`);
    await sleep(20);
  }
});

afterAll(() => {
  for (const f of [makerFeed, takerFeed, priceFeed]) f?.ws.terminate();
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// ------------------------------------------------------------------ the walk

describe.sequential('contract walk against `linesmith sim` as a child process', () => {
  it('admin API: two users, a soccer game and an NBA game; login by username and by e-mail', async () => {
    const clock = await ok('GET', '/admin/clock');
    expect(clock.data.now).toMatch(ISO);
    since = clock.data.now;

    const users: Record<string, { id: string }> = {};
    for (const [username, rate] of [
      ['maker', MAKER_RATE],
      ['taker', TAKER_RATE],
    ] as const) {
      const made = await ok('POST', '/admin/users', {
        body: {
          username,
          password: `pw-${username}`,
          email: `${username}@example.test`,
          balance: 100_000,
          commission: rate,
        },
      });
      expect(made.data.user.id).toMatch(HEX24);
      expect(made.data.user.username).toBe(username);
      users[username] = made.data.user;
    }
    const dup = await http('POST', '/admin/users', { body: { username: 'maker', password: 'x' } });
    expect(dup.status).toBe(409);

    const mkGame = async (body: Record<string, unknown>): Promise<Game> => {
      const made = await ok('POST', '/admin/games', { body });
      const g = made.data.game;
      expect(g.id).toMatch(HEX24);
      expect(g.participants.map((p: any) => p.homeAway)).toEqual(['away', 'home']);
      return { id: g.id, away: g.participants[0].id, home: g.participants[1].id };
    };
    nba = await mkGame({
      league: 'NBA',
      sport: 'basketball',
      start: NBA_START,
      participants: [
        { longName: 'Los Angeles Lakers', shortName: 'LAL' },
        { longName: 'Boston Celtics', shortName: 'BOS' },
      ],
    });
    epl = await mkGame({
      league: 'EPL',
      sport: 'soccer',
      start: EPL_START,
      participants: [
        { longName: 'Arsenal', shortName: 'ARS' },
        { longName: 'Chelsea', shortName: 'CHE' },
      ],
    });

    // exchange-api §4.1: username or e-mail; a 256-hex token, also set as the `auth` cookie.
    const byName = await http('POST', '/user/login', { body: { username: 'maker', password: 'pw-maker' } });
    expect(byName.status).toBe(200);
    expect(byName.body.data.user).toMatchObject({ id: users.maker!.id, username: 'maker' });
    expect(byName.body.data.user.auth).toMatch(TOKEN);
    expect(byName.headers.get('set-cookie')).toMatch(/^auth=/);
    const byEmail = await http('POST', '/user/login', {
      body: { username: 'taker@example.test', password: 'pw-taker' },
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.user).toMatchObject({ id: users.taker!.id, username: 'taker' });
    expect(byEmail.body.data.user.auth).toMatch(TOKEN);
    const wrong = await http('POST', '/user/login', { body: { username: 'maker', password: 'nope' } });
    expect(wrong.status).toBe(401);
    maker = { id: users.maker!.id, username: 'maker', token: byName.body.data.user.auth };
    taker = { id: users.taker!.id, username: 'taker', token: byEmail.body.data.user.auth };
    const unauth = await http('GET', '/exchange/getLeagues');
    expect(unauth.status).toBe(401);
    expect(unauth.body).toEqual({ error: { message: 'InvalidCredentials', code: 401 } });
  });

  it('reads leagues, games, participants and the v2 orderbook', async () => {
    const leagues = await ok('GET', '/exchange/getLeagues', { token: taker.token });
    expect(leagues.data.availableLeagues).toEqual(expect.arrayContaining(['EPL', 'NBA']));
    const soccer = await ok('GET', '/exchange/getLeagues?sport=soccer', { token: taker.token });
    expect(soccer.data.availableLeagues).toEqual(['EPL', 'all']);

    const games = await ok('GET', '/exchange/v2/getGames?league=NBA', { token: taker.token });
    expect(games.data.games).toHaveLength(1);
    const g = games.data.games[0];
    expect(g).toMatchObject({ id: nba.id, league: 'NBA', sport: 'basketball', start: NBA_START, live: false });
    expect(g.participants).toMatchObject([
      { id: nba.away, longName: 'Los Angeles Lakers', homeAway: 'away' },
      { id: nba.home, longName: 'Boston Celtics', homeAway: 'home' },
    ]);
    const upcoming = await ok('GET', '/exchange/v2/getGames?league=upcoming', { token: taker.token });
    expect(upcoming.data.games.map((x: any) => x.id)).toEqual([nba.id, epl.id]);

    const participants = await ok('GET', '/exchange/getParticipants', { token: taker.token });
    const byId = new Map<string, any>(participants.data.participants.map((p: any) => [p.participantID, p]));
    expect(byId.get(nba.away)).toMatchObject({
      longName: 'Los Angeles Lakers',
      shortName: 'LAL',
      league: 'NBA',
      sport: 'basketball',
    });
    expect(byId.get(epl.home)).toMatchObject({ longName: 'Chelsea', shortName: 'CHE', league: 'EPL', sport: 'soccer' });
    expect(byId.has(nba.home) && byId.has(epl.away)).toBe(true);

    const book = await ok('GET', `/exchange/v2/getOrderbook?gameID=${nba.id}`, { token: taker.token });
    expect(book.data.games).toHaveLength(1);
    const b = book.data.games[0];
    expect(b.id).toBe(nba.id);
    for (const k of ['homeMoneylines', 'awayMoneylines', 'homeSpreads', 'awaySpreads', 'over', 'under'])
      expect(b[k], k).toEqual([]);
    expect(b.matchedVolume).toBe(0);
  });

  it('connects both user feeds and a price feed', async () => {
    makerFeed = await Feed.open('/v2/user', maker.token);
    takerFeed = await Feed.open('/v2/user', taker.token);
    priceFeed = await Feed.open('/price-stream', taker.token);
    // The handshake needs a token.
    const refused = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/v2/user');
    const status = await new Promise<number>((resolve) => {
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      refused.once('open', () => resolve(101));
    });
    refused.on('error', () => {});
    refused.terminate();
    expect(status).toBe(401);
  });

  it('NBA moneyline: post rests (book perspective), limit fills partly, crossing post rejected, fillOrKill all-or-nothing', async () => {
    const posted = await placeOne(maker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.home,
      odds: -120,
      bet: 240,
      orderType: 'post',
      userReference: 'mk-ml',
    });
    expect(posted.matched).toEqual([]);
    expect(posted.unmatched).toMatchObject({
      offered: 240,
      odds: -120,
      type: 'moneyline',
      side: nba.home,
      number: null,
      userReference: 'mk-ml',
    });
    const mlOrder: string = posted.unmatched.orderID;
    expect(mlOrder).toMatch(HEX24);

    // feeds-and-semantics §3: listed under the away side at +120; sumUntaken is the maker's potential win.
    const seen = async (token: string) =>
      (await ok('GET', `/exchange/v2/getOrderbook?gameID=${nba.id}`, { token })).data.games[0];
    const forTaker = await seen(taker.token);
    expect(forTaker.homeMoneylines).toEqual([]);
    expect(forTaker.awayMoneylines).toHaveLength(1);
    expect(forTaker.awayMoneylines[0]).toMatchObject({ id: mlOrder, odds: 120, bet: 240 });
    expect(forTaker.awayMoneylines[0].sumUntaken).toBeCloseTo(200, 6);
    expect('createdBy' in forTaker.awayMoneylines[0]).toBe(false);
    expect((await seen(maker.token)).awayMoneylines[0].createdBy).toBe('maker');

    // The maker's feed says "placed": filled 0, offered > 0.
    const placedMsg = await makerFeed.waitFor('ml placed', (m) => m.unmatched?.orderID === mlOrder);
    expect(placedMsg.msg).toMatchObject({
      matched: null,
      origin: 'offer',
      gameID: nba.id,
      league: 'NBA',
      sport: 'basketball',
    });
    expect(placedMsg.msg.unmatched).toMatchObject({
      filled: 0,
      offered: 240,
      remaining: 240,
      odds: -120,
      userReference: 'mk-ml',
    });
    const placedUpdate = await priceFeed.waitFor(
      'ml placed update',
      (m) => m[0] === 'orderUpdate' && m[1].sideOrders.some((o: any) => o.id === mlOrder),
    );
    expect(placedUpdate.msg[1]).toMatchObject({
      gameID: nba.id,
      type: 'moneyline',
      participantID: nba.away,
      league: 'NBA',
      sport: 'basketball',
    });

    // Limit: the taker backs away at +120 for 100, half of what is offered.
    const limit = await placeOne(taker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.away,
      odds: 120,
      bet: 100,
      orderType: 'limit',
      userReference: 'tk-ml',
    });
    const [f1] = recordFills(limit, 'nba', { type: 'moneyline', team: 'away' }, 'limit');
    expect(limit.matched).toHaveLength(1);
    expect(limit.unmatched).toEqual({});
    expect(limit.matched[0]).toMatchObject({
      amount: 100,
      odds: 120,
      orderID: mlOrder,
      type: 'moneyline',
      side: nba.away,
      number: null,
      userReference: 'tk-ml',
    });
    expect(f1!.amount).toBe(100);
    const half = await priceFeed.waitFor(
      'ml side after the partial fill',
      (m) =>
        m[0] === 'orderUpdate' &&
        m[1].gameID === nba.id &&
        m[1].participantID === nba.away &&
        m[1].sideOrders.length === 1 &&
        Math.abs(m[1].sideOrders[0].sumUntaken - 100) < 1e-6,
      placedUpdate.index,
    );
    expect(half.msg[1].sideOrders[0]).toMatchObject({ id: mlOrder, odds: 120, bet: 240, takenRatio: 0.5 });

    // A post that would match is rejected (§3, §7.3).
    const crossingPost = await placeOne(taker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.away,
      odds: 120,
      bet: 10,
      orderType: 'post',
    });
    expect(crossingPost).toEqual({ error: 'post order cannot have matches', errorType: 'rejected_order_type_rules' });

    // fillOrKill: 200 against 100 of capacity leaves 100 > 10 → rejected and nothing fills…
    const fokTooBig = await placeOne(taker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.away,
      odds: 120,
      bet: 200,
      orderType: 'fillOrKill',
    });
    expect(fokTooBig).toEqual({ error: 'fill or kill matched but not fully', errorType: 'rejected_order_type_rules' });
    // …105 leaves a residual of 5 ≤ 10: complete; the maker order is now fully filled.
    const fok = await placeOne(taker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.away,
      odds: 120,
      bet: 105,
      orderType: 'fillOrKill',
    });
    recordFills(fok, 'nba', { type: 'moneyline', team: 'away' }, 'fillOrKill');
    expect(fok.matched).toHaveLength(1);
    expect(fok.matched[0].amount).toBeCloseTo(100, 6);
    expect(fok.unmatched).toEqual({});
    await priceFeed.waitFor(
      'ml side emptied',
      (m) =>
        m[0] === 'orderUpdate' &&
        m[1].gameID === nba.id &&
        m[1].participantID === nba.away &&
        m[1].type === 'moneyline' &&
        m[1].sideOrders.length === 0,
      half.index,
    );
    const filledCancel = await http('POST', '/session/cancel', { token: maker.token, body: { sessionID: mlOrder } });
    expect(filledCancel.status).toBe(409);

    const noLiquidity = await placeOne(taker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.away,
      odds: 120,
      bet: 10,
      orderType: 'fillOrKill',
    });
    expect(noLiquidity).toEqual({ error: 'fill or kill has no matches', errorType: 'rejected_order_type_rules' });
  });

  it('NBA spread and total: fillAndKill, postArb inside and outside the 1% band, a resting postArb, a bulk sweep', async () => {
    // Maker backs home -4.5 at +105 risking 100: listed for away +4.5 takers at -105, 105 to take.
    const sp = await placeOne(maker, {
      gameID: nba.id,
      type: 'spread',
      side: nba.home,
      number: -4.5,
      odds: 105,
      bet: 100,
      orderType: 'post',
    });
    const spOrder: string = sp.unmatched.orderID;
    // fillAndKill at -110 takes the 105 at the better -105; the rest (195) is cancelled.
    const fak = await placeOne(taker, {
      gameID: nba.id,
      type: 'spread',
      side: nba.away,
      number: 4.5,
      odds: -110,
      bet: 300,
      orderType: 'fillAndKill',
    });
    const [fakFill] = recordFills(fak, 'nba', { type: 'spread', team: 'away', line: 4.5 }, 'fillAndKill');
    expect(fak.matched).toHaveLength(1);
    expect(fakFill).toMatchObject({ odds: -105, makerOrderID: spOrder });
    expect(fakFill!.amount).toBeCloseTo(105, 6);
    expect(fak.unmatched).toEqual({});
    const fakNone = await placeOne(taker, {
      gameID: nba.id,
      type: 'spread',
      side: nba.away,
      number: 4.5,
      odds: -110,
      bet: 10,
      orderType: 'fillAndKill',
    });
    expect(fakNone).toEqual({ error: 'fill and kill has no matches', errorType: 'rejected_order_type_rules' });

    // Maker: limit over 220.5 at -110 risking 110, listed for under takers at +110 (100 to take).
    const ov = await placeOne(maker, {
      gameID: nba.id,
      type: 'total',
      side: 'over',
      number: 220.5,
      odds: -110,
      bet: 110,
      orderType: 'limit',
    });
    expect(ov.matched).toEqual([]);
    const ovOrder: string = ov.unmatched.orderID;
    // postArb at +105 would match +110: 5 apart, more than 1% of 110 → rejected.
    const arbFar = await placeOne(taker, {
      gameID: nba.id,
      type: 'total',
      side: 'under',
      number: 220.5,
      odds: 105,
      bet: 50,
      orderType: 'postArb',
    });
    expect(arbFar.errorType).toBe('rejected_order_type_rules');
    expect(arbFar.matched).toBeUndefined();
    // postArb at +109 is within 1%: matches at +110 with no taker commission.
    const arb = await placeOne(taker, {
      gameID: nba.id,
      type: 'total',
      side: 'under',
      number: 220.5,
      odds: 109,
      bet: 50,
      orderType: 'postArb',
    });
    const [arbFill] = recordFills(arb, 'nba', { type: 'total', ou: 'under', line: 220.5 }, 'postArb');
    expect(arb.matched).toHaveLength(1);
    expect(arbFill).toMatchObject({ amount: 50, odds: 110 });
    expect(arb.matched[0].win).toBeCloseTo(55, 6);
    expect(arb.matched[0].risk).toBeCloseTo(50, 6);
    expect('isPostArb' in arb.matched[0]).toBe(false); // the place response carries no isPostArb
    const arbTaker = await takerFeed.waitFor('postArb fill (taker)', (m) => m.matched?.txID === arbFill!.txID);
    expect(arbTaker.msg.matched.isPostArb).toBe(true);
    const arbMaker = await makerFeed.waitFor('postArb fill (maker)', (m) => m.matched?.txID === arbFill!.txID);
    expect('isPostArb' in arbMaker.msg.matched).toBe(false);
    expect(arbMaker.msg.unmatched).toMatchObject({ orderID: ovOrder, offered: 110 });
    expect(arbMaker.msg.unmatched.remaining).toBeCloseTo(55, 6);
    expect(arbMaker.msg.unmatched.filled).toBeCloseTo(55, 6);

    // A postArb that does not cross rests, flagged on both feeds.
    const restingArb = await placeOne(maker, {
      gameID: nba.id,
      type: 'total',
      side: 'over',
      number: 230.5,
      odds: -105,
      bet: 50,
      orderType: 'postArb',
    });
    const restingArbOrder: string = restingArb.unmatched.orderID;
    const arbUpdate = await priceFeed.waitFor(
      'resting postArb update',
      (m) => m[0] === 'orderUpdate' && m[1].sideOrders.some((o: any) => o.id === restingArbOrder),
    );
    expect(arbUpdate.msg[1]).toMatchObject({ type: 'total', participantID: null, OU: 'under', total: 230.5 });
    expect(arbUpdate.msg[1].sideOrders[0]).toMatchObject({ id: restingArbOrder, odds: 105, isPostArb: true });
    const arbPlaced = await makerFeed.waitFor(
      'resting postArb placed',
      (m) => m.unmatched?.orderID === restingArbOrder,
    );
    expect(arbPlaced.msg.unmatched.isPostArb).toBe(true);

    // Bulk: 120 one-unit maker offers swept by one taker order, 120 fills (more than a page of graded rows).
    const bulk = await place(
      maker,
      Array.from({ length: BULK }, (_, i) => ({
        gameID: nba.id,
        type: 'spread',
        side: nba.home,
        number: -10.5,
        odds: 100,
        bet: 1,
        orderType: 'post',
        userReference: `bulk-${i}`,
      })),
    );
    expect(bulk.every((e) => HEX24.test(e.unmatched?.orderID ?? ''))).toBe(true);
    const sweep = await placeOne(taker, {
      gameID: nba.id,
      type: 'spread',
      side: nba.away,
      number: 10.5,
      odds: -100,
      bet: BULK,
      orderType: 'limit',
    });
    const swept = recordFills(sweep, 'nba', { type: 'spread', team: 'away', line: 10.5 }, 'limit');
    expect(swept).toHaveLength(BULK);
    expect(new Set(swept.map((f) => f.makerOrderID))).toEqual(new Set(bulk.map((e) => e.unmatched.orderID)));
  });

  it('EPL: moneyline1x2 on a team and on the draw, a quarter-line spread and a total', async () => {
    // Maker backs Chelsea (home) to win at +150 risking 100: listed as "no" on that market at -150.
    const yes = await placeOne(maker, {
      gameID: epl.id,
      type: 'moneyline1x2',
      side: 'yes',
      market: epl.home,
      odds: 150,
      bet: 100,
      orderType: 'post',
    });
    const yesOrder: string = yes.unmatched.orderID;
    expect(yes.unmatched).toMatchObject({ type: 'moneyline1x2', side: 'yes', market: epl.home, number: null });
    const no = await placeOne(taker, {
      gameID: epl.id,
      type: 'moneyline1x2',
      side: 'no',
      market: epl.home,
      odds: -150,
      bet: 90,
      orderType: 'limit',
    });
    recordFills(no, 'epl', { type: 'moneyline1x2', outcome: 'home', yes: false }, 'limit');
    expect(no.matched).toHaveLength(1);
    expect(no.matched[0]).toMatchObject({ amount: 90, odds: -150, market: epl.home, side: 'no', type: 'moneyline1x2' });
    const update1x2 = await priceFeed.waitFor(
      '1x2 side after the fill',
      (m) =>
        m[0] === 'orderUpdate' &&
        m[1].gameID === epl.id &&
        m[1].type === 'moneyline1x2' &&
        m[1].sideOrders.some((o: any) => o.id === yesOrder && Math.abs(o.sumUntaken - 60) < 1e-6),
    );
    expect(update1x2.msg[1]).toMatchObject({
      participantID: '',
      market: epl.home,
      side: 'no',
      league: 'EPL',
      sport: 'soccer',
    });
    for (const k of ['OU', 'total', 'spread']) expect(k in update1x2.msg[1], k).toBe(false);

    const drawYes = await placeOne(maker, {
      gameID: epl.id,
      type: 'moneyline1x2',
      side: 'yes',
      market: 'draw',
      odds: 250,
      bet: 40,
      orderType: 'post',
    });
    expect(drawYes.unmatched.market).toBe('draw');
    const drawNo = await placeOne(taker, {
      gameID: epl.id,
      type: 'moneyline1x2',
      side: 'no',
      market: 'draw',
      odds: -250,
      bet: 100,
      orderType: 'limit',
    });
    recordFills(drawNo, 'epl', { type: 'moneyline1x2', outcome: 'draw', yes: false }, 'limit');
    expect(drawNo.matched).toHaveLength(1);
    expect(drawNo.matched[0].amount).toBeCloseTo(100, 6);

    // Quarter line: maker Chelsea -0.75 at -105 risking 105 → listed for Arsenal +0.75 at +105 (100 to take).
    await placeOne(maker, {
      gameID: epl.id,
      type: 'spread',
      side: epl.home,
      number: -0.75,
      odds: -105,
      bet: 105,
      orderType: 'post',
    });
    const q = await placeOne(taker, {
      gameID: epl.id,
      type: 'spread',
      side: epl.away,
      number: 0.75,
      odds: 105,
      bet: 100,
      orderType: 'limit',
    });
    recordFills(q, 'epl', { type: 'spread', team: 'away', line: 0.75 }, 'limit');
    expect(q.matched).toHaveLength(1);

    // Total 2.5: maker under at +120 risking 50 (60 to take); taker fillOrKill over for exactly 60.
    await placeOne(maker, {
      gameID: epl.id,
      type: 'total',
      side: 'under',
      number: 2.5,
      odds: 120,
      bet: 50,
      orderType: 'post',
    });
    const tot = await placeOne(taker, {
      gameID: epl.id,
      type: 'total',
      side: 'over',
      number: 2.5,
      odds: -120,
      bet: 60,
      orderType: 'fillOrKill',
    });
    recordFills(tot, 'epl', { type: 'total', ou: 'over', line: 2.5 }, 'fillOrKill');
    expect(tot.matched).toHaveLength(1);
    expect(tot.matched[0].amount).toBeCloseTo(60, 6);
  });

  it('every fill reached both user feeds with the contract envelope, and the price feed as orderUpdate', async () => {
    expect(fills).toHaveLength(8 + BULK);
    for (const f of fills) {
      const t = await takerFeed.waitFor(`taker fill ${f.txID}`, (m) => m.matched?.txID === f.txID);
      expect(t.msg.origin).toBe('wager');
      expect(t.msg.unmatched).toBeNull();
      expect(t.msg.gameID).toBe(f.game === 'nba' ? nba.id : epl.id);
      expect(t.msg.matched.amount).toBeCloseTo(f.amount, 6);
      expect(t.msg.matched.odds).toBe(f.odds);
      const m = money(f.amount, f.odds, f.takerRate);
      expect(t.msg.matched.win).toBeCloseTo(m.win, 6);
      expect(t.msg.matched.risk).toBeCloseTo(m.risk, 6);
      const mk = await makerFeed.waitFor(`maker fill ${f.txID}`, (x) => x.matched?.txID === f.txID);
      expect(mk.msg.origin).toBe('offer');
      expect(mk.msg.matched.orderID).toBe(f.makerOrderID);
      expect(mk.msg.unmatched.orderID).toBe(f.makerOrderID);
      // The maker risks what the taker can win; filled is what this event alone matched.
      expect(mk.msg.matched.amount).toBeCloseTo(m.wwc, 6);
      expect(mk.msg.matched.amount * payout(mk.msg.matched.odds)).toBeCloseTo(f.amount, 6);
      expect(mk.msg.unmatched.filled).toBeCloseTo(mk.msg.matched.amount, 6);
      expect(mk.msg.matched.win).toBeCloseTo(f.amount, 6); // a maker pays no commission
    }
    for (const [name, feed] of [
      ['maker', makerFeed],
      ['taker', takerFeed],
    ] as const) {
      let prev: [number, number] = [-1, -1];
      for (const msg of feed.messages) {
        expect(Object.keys(msg).sort(), name).toEqual(ENVELOPE_KEYS);
        expect(msg.platform).toBe('api');
        expect(msg.createdAt).toMatch(ISO);
        const id = messageIdParts(msg.messageID);
        expect(
          id[0] > prev[0] || (id[0] === prev[0] && id[1] > prev[1]),
          `${name}: ${msg.messageID} after ${prev.join('-')}`,
        ).toBe(true);
        prev = id;
      }
    }
    // Every maker order the fills touched had its side re-published; epochs increase.
    const updates = priceFeed.messages.filter((m) => m[0] === 'orderUpdate').map((m) => m[1]);
    const epochs = updates.map((u) => u.epoch);
    for (let i = 1; i < epochs.length; i++) expect(epochs[i]).toBeGreaterThan(epochs[i - 1]);
    const listedIds = new Set(updates.flatMap((u) => u.sideOrders.map((o: any) => o.id)));
    for (const f of fills) expect(listedIds.has(f.makerOrderID), f.makerOrderID).toBe(true);
    // matchedVolume counts both sides' stakes of every fill.
    const volume = fills
      .filter((f) => f.game === 'nba')
      .reduce((s, f) => s + f.amount + money(f.amount, f.odds, 0).wwc, 0);
    await priceFeed.waitFor(
      'NBA matched volume',
      (m) => m[0] === 'matchedVolumeUpdate' && m[1].gameID === nba.id && Math.abs(m[1].matchedVolume - volume) < 1e-6,
    );
  });

  it('cancels a resting order, then cancelMultiple with a foreign id; reads matched bets and game liability', async () => {
    const tkRest = await placeOne(taker, {
      gameID: nba.id,
      type: 'total',
      side: 'over',
      number: 240.5,
      odds: -110,
      bet: 10,
      orderType: 'limit',
    });
    const tkOrder: string = tkRest.unmatched.orderID;
    const foreign = await http('POST', '/session/cancel', { token: maker.token, body: { sessionID: tkOrder } });
    expect(foreign.status).toBe(403);

    // The over 220.5 order: 110 offered, 55 matched by the postArb, 55 still resting.
    const ovOrder = fills.find((f) => f.postArb)!.makerOrderID;
    const c = await http('POST', '/session/cancel', { token: maker.token, body: { sessionID: ovOrder } });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({ success: true, sessionID: ovOrder, gameID: nba.id, offered: 0 });
    expect(c.body.data.filled).toBeCloseTo(55, 6);
    expect(c.body.data.remaining).toBeCloseTo(55, 6);
    expect(typeof c.body.data.description).toBe('string');
    const cancelled = await makerFeed.waitFor(
      'over cancelled',
      (m) => m.unmatched?.orderID === ovOrder && m.unmatched.offered === 0,
    );
    expect(cancelled.msg.matched).toBeNull();
    expect(cancelled.msg.unmatched.filled).toBeCloseTo(55, 6); // cumulative on a cancel
    await priceFeed.waitFor(
      'under 220.5 emptied',
      (m) =>
        m[0] === 'orderUpdate' &&
        m[1].gameID === nba.id &&
        m[1].total === 220.5 &&
        m[1].OU === 'under' &&
        m[1].sideOrders.length === 0,
    );

    const spare = await placeOne(maker, {
      gameID: nba.id,
      type: 'moneyline',
      side: nba.home,
      odds: -140,
      bet: 20,
      orderType: 'post',
    });
    const restingArb = (await ok('GET', '/user/getUnmatched', { token: maker.token })).data.unmatched.find(
      (o: any) => o.total === 230.5,
    );
    expect(restingArb).toBeDefined();
    const multi = await http('POST', '/session/cancelMultiple', {
      token: maker.token,
      body: { sessionIDs: [restingArb.id, spare.unmatched.orderID, tkOrder] },
    });
    expect(multi.status).toBe(200);
    expect(multi.body.data).toHaveLength(3);
    expect(multi.body.data[0]).toMatchObject({ success: true, sessionID: restingArb.id });
    expect(multi.body.data[1]).toMatchObject({
      success: true,
      sessionID: spare.unmatched.orderID,
      offered: 0,
      remaining: 20,
      filled: 0,
    });
    expect(multi.body.data[2].success).toBe(false);
    expect(typeof multi.body.data[2].reason).toBe('string');
    expect('sessionID' in multi.body.data[2]).toBe(false);
    const malformed = await http('POST', '/session/cancelMultiple', {
      token: maker.token,
      body: { sessionIDs: ['not-an-id'] },
    });
    expect(malformed.status).toBe(400);
    expect(
      (await ok('POST', '/session/cancel', { token: taker.token, body: { sessionID: tkOrder } })).data.success,
    ).toBe(true);
    // What still rests of the maker's: only the Chelsea 1x2 offer (100 risked, 60 matched).
    const left = (await ok('GET', '/user/getUnmatched', { token: maker.token })).data.unmatched;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ type: 'moneyline1x2', market: epl.home, side: 'yes', offered: 100, remaining: 40 });

    // Open bets: one per fill from each side, sorted by game start (NBA first), no fee yet.
    for (const [u, origin] of [
      [taker, 'wager'],
      [maker, 'offer'],
    ] as const) {
      const bets: any[] = (await ok('GET', '/user/getMatchedBets', { token: u.token })).data.matchedBets;
      expect(bets).toHaveLength(fills.length);
      expect(new Set(bets.map((b) => b.txID))).toEqual(new Set(fills.map((f) => f.txID)));
      const starts = bets.map((b) => b.game.start);
      expect(starts).toEqual([...starts].sort());
      expect(starts[0]).toBe(NBA_START);
      for (const b of bets) {
        expect(b).toMatchObject({ origin, graded: false, closed: false, adminRefund: false });
        expect(b.risk).toMatch(MONEY_STRING);
        expect(b.win).toMatch(MONEY_STRING);
        expect('fee' in b).toBe(false);
      }
      const arbBet = bets.find((b) => b.txID === fills.find((f) => f.postArb)!.txID);
      expect(arbBet).toMatchObject({ type: 'total', total: 220.5, OU: origin === 'wager' ? 'under' : 'over' });
    }

    // Worst case on the NBA game. Taker: every bet is on the away side or the under, all lose
    // together (home by 11+, 221+ points): the sum of the risks. Maker: away wins with 220 or
    // fewer points loses every maker bet: the sum of the maker risks.
    const nbaFills = fills.filter((f) => f.game === 'nba');
    const takerWorst = nbaFills.reduce((s, f) => s + money(f.amount, f.odds, f.takerRate).risk, 0);
    const makerWorst = nbaFills.reduce((s, f) => s + money(f.amount, f.odds, 0).wwc, 0);
    const liability = async (u: User) =>
      (await ok('GET', `/user/getGameLiability?gameID=${nba.id}`, { token: u.token })).data.liability;
    expect(await liability(taker)).toBeCloseTo(-takerWorst, 6);
    expect(await liability(maker)).toBeCloseTo(-makerWorst, 6);
    expect(takerWorst).toBeCloseTo(102 + 102 + 107 + 50 + BULK * 1.02, 6);
  });

  const FIRST: Record<'nba' | 'epl', Score> = { nba: { away: 100, home: 110 }, epl: { away: 1, home: 2 } };
  const REGRADE: Score = { away: 110, home: 100 };

  /** Maker amount and odds of each fill, from the maker's feed. */
  const makerSide = () =>
    new Map<string, { amount: number; odds: number }>(
      makerFeed.messages
        .filter((m) => m.matched)
        .map((m) => [m.matched.txID, { amount: m.matched.amount, odds: m.matched.odds }]),
    );

  it('settles both games, then walks getGradedSince from before the games: one row per fill per side', async () => {
    await ok('POST', '/admin/clock', { body: { advanceMs: 1000 } });
    const nbaCount = fills.filter((f) => f.game === 'nba').length;
    const r1 = await ok('POST', `/admin/games/${nba.id}/result`, {
      body: { awayScore: FIRST.nba.away, homeScore: FIRST.nba.home },
    });
    expect(r1.data.graded).toBe(2 * nbaCount);
    const r2 = await ok('POST', `/admin/games/${epl.id}/result`, {
      body: { awayScore: FIRST.epl.away, homeScore: FIRST.epl.home },
    });
    expect(r2.data.graded).toBe(2 * (fills.length - nbaCount));
    for (const g of [nba, epl]) {
      await priceFeed.waitFor(
        `${g.id} closed`,
        (m) => m[0] === 'gameUpdate' && m[1].id === g.id && m[1].messageType === 'marketClosed' && m[1].ended === true,
      );
    }
    expect((await ok('GET', '/user/getMatchedBets', { token: taker.token })).data.matchedBets).toEqual([]);

    // The graded endpoints take the raw token only.
    const bearer = await http('GET', `/user/v2/getGradedSince?since=${encodeURIComponent(since)}`, {
      authorization: `Bearer ${taker.token}`,
    });
    expect(bearer.status).toBe(401);

    const makerMoney = makerSide();
    for (const [u, who] of [
      [taker, 'taker'],
      [maker, 'maker'],
    ] as const) {
      const w = await walk(u, { since });
      expect(w.pages).toBe(2);
      expect(w.rows).toHaveLength(fills.length);
      const byTx = new Map<string, any>(w.rows.map((r) => [r.txID, r]));
      expect(byTx.size).toBe(fills.length);
      for (const f of fills) {
        const row = byTx.get(f.txID);
        expect(row, f.txID).toBeDefined();
        const mk = makerMoney.get(f.txID)!;
        checkRow(row, f, who, FIRST[f.game], f.game === 'nba' ? nba : epl, mk.amount, mk.odds);
      }
      // An empty page returns the cursor unchanged.
      const again = await http('GET', `/user/v2/getGradedSince?cursor=${encodeURIComponent(w.cursor)}`, {
        token: u.token,
        raw: true,
      });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ graded: [], hasMore: false, cursor: w.cursor });
      walkCursor.set(u.id, w.cursor);
    }
    // Spot checks of the table: the quarter line splits, the postArb taker pays no fee.
    const quarter = fills.find((f) => f.takerSel.type === 'spread' && f.game === 'epl')!;
    expect(outcomeOf(quarter.takerSel, FIRST.epl)).toBe('half-loss');
    expect(outcomeOf(opposite(quarter.takerSel), FIRST.epl)).toBe('half-win');
  });

  it('regrades the NBA game: the changed txIDs reappear later in the walk with the new outcome, latest wins', async () => {
    await ok('POST', '/admin/clock', { body: { advanceMs: 1000 } });
    const changed = new Set(
      fills
        .filter((f) => f.game === 'nba' && outcomeOf(f.takerSel, FIRST.nba) !== outcomeOf(f.takerSel, REGRADE))
        .map((f) => f.txID),
    );
    // Both moneyline fills and the 4.5 spread flip; the total and the 10.5 spread do not.
    expect(changed.size).toBe(3);
    const r = await ok('POST', `/admin/games/${nba.id}/result`, {
      body: { awayScore: REGRADE.away, homeScore: REGRADE.home },
    });
    expect(r.data.graded).toBe(2 * changed.size);

    const makerMoney = makerSide();
    const final = (f: Fill): Score => (f.game === 'nba' ? REGRADE : FIRST.epl);
    for (const [u, who] of [
      [taker, 'taker'],
      [maker, 'maker'],
    ] as const) {
      // Polling on from the saved cursor gives exactly the new versions.
      const more = await walk(u, { cursor: walkCursor.get(u.id)! });
      expect(new Set(more.rows.map((row) => row.txID))).toEqual(changed);
      expect(more.rows).toHaveLength(changed.size);

      // The whole walk again from `since`: regraded txIDs twice, the later one newer.
      const all = await walk(u, { since });
      expect(all.rows).toHaveLength(fills.length + changed.size);
      const latest = new Map<string, any>();
      const firstAt = new Map<string, number>();
      all.rows.forEach((row, i) => {
        if (!firstAt.has(row.txID)) firstAt.set(row.txID, i);
        else {
          expect(changed.has(row.txID), row.txID).toBe(true);
          expect(i).toBeGreaterThan(firstAt.get(row.txID)!);
          expect(row.settledAt > latest.get(row.txID).settledAt).toBe(true);
          expect(row.outcome).not.toBe(latest.get(row.txID).outcome);
        }
        latest.set(row.txID, row);
      });
      expect(latest.size).toBe(fills.length);
      for (const f of fills) {
        const mk = makerMoney.get(f.txID)!;
        checkRow(latest.get(f.txID), f, who, final(f), f.game === 'nba' ? nba : epl, mk.amount, mk.odds);
      }
    }
  });

  it('exits 0 on SIGTERM, closing the sockets', async () => {
    const c = child!;
    c.kill('SIGTERM');
    const result = await Promise.race([
      exited,
      sleep(10_000).then(() => ({ code: null, signal: 'TIMEOUT' as NodeJS.Signals })),
    ]);
    expect(result, stderr).toEqual({ code: 0, signal: null });
    await Promise.race([
      Promise.all([makerFeed.closed, takerFeed.closed, priceFeed.closed]),
      sleep(3_000).then(() => Promise.reject(new Error('feeds not closed'))),
    ]);
  });
});
