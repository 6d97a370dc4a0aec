import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom, take, toArray } from 'rxjs';
import type { EngineGame, PlaceInput } from '../../src/engine/types.ts';
import { gradedPages$, type GradedPage, type GradedWalker } from '../../src/exchange/rest/graded-walker.ts';
import { splitWindows } from '../../src/exchange/rest/graded-window.ts';
import type { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import type { GradedRow } from '../../src/exchange/schemas/bets.ts';
import { manualTime, type ManualTimeSource } from '../../src/shared/time.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';

const T0 = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;

let t: TestSim | undefined;
const clients: ExchangeRestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await t?.close();
  t = undefined;
});

/** `n` fills of `stake` on the home moneyline of `g`: maker rests away at -110, taker takes home at +110. */
function fills(sim: TestSim, g: EngineGame, makerId: string, takerId: string, n: number, stake = 1): string[] {
  const engine = sim.sim.context.engine;
  const [rest] = engine.place(makerId, [
    { gameID: g.id, type: 'moneyline', side: g.participants[0].id, odds: -110, bet: n * stake * 1.2 },
  ]);
  if (rest?.status !== 'ok') throw new Error('maker order failed');
  const orders: PlaceInput[] = Array.from({ length: n }, () => ({
    gameID: g.id,
    type: 'moneyline',
    side: g.participants[1].id,
    odds: 110,
    bet: stake,
  }));
  return engine.place(takerId, orders).map((e) => {
    if (e.status !== 'ok' || e.matched.length !== 1) throw new Error('taker order failed');
    return e.matched[0]!.txID;
  });
}

async function setup() {
  const time = manualTime(T0);
  t = await startTestSim({ time });
  const maker = await clientFor(t, 'maker');
  const taker = await clientFor(t, 'taker');
  clients.push(maker.client, taker.client);
  return { sim: t, time: time as ManualTimeSource, maker, taker };
}

const result = (sim: TestSim, gameID: string, awayScore: number, homeScore: number) =>
  sim.http('POST', `/admin/games/${gameID}/result`, { body: { awayScore, homeScore } });

/** Every page of a walk, through the walk the runtime runs (`walk`); `onPage` sees each as it comes. */
async function drain(walker: GradedWalker, onPage?: (page: GradedPage, index: number) => void): Promise<GradedPage[]> {
  const out: GradedPage[] = [];
  await walker.walk((p) => {
    out.push(p);
    onPage?.(p, out.length - 1);
  });
  return out;
}

describe('graded walker (getGradedSince rules 1–7)', () => {
  it('follows hasMore across pages, takes a regrade as the newer version, and resumes from settledThrough without repeats', async () => {
    const { sim, time, maker, taker } = await setup();
    const g1 = sim.game();
    const g2 = sim.game();
    const tx1 = fills(sim, g1, maker.user.id, taker.user.id, 130);
    const tx2 = fills(sim, g2, maker.user.id, taker.user.id, 3, 10);
    time.advance(1_000);
    await result(sim, g1.id, 90, 100);
    time.advance(1_000);
    await result(sim, g2.id, 90, 100);
    time.advance(1_000);

    const walker = taker.client.gradedWalker({ since: new Date(T0).toISOString(), follow: false });
    const first = await drain(walker);
    expect(first.map((p) => [p.rows.length, p.hasMore])).toEqual([
      [100, true],
      [33, false],
    ]);
    const rows = first.flatMap((p) => p.rows);
    expect(rows.map((r) => r.txID)).toEqual([...tx1, ...tx2]);
    expect(rows.every((r) => r.outcome === 'winner' && r.origin === 'wager')).toBe(true);

    // Score correction on g2: the same txIDs come back as newer versions; g1 is untouched.
    await result(sim, g2.id, 110, 100);
    time.advance(1_000);
    const second = await drain(walker);
    const regraded = second.flatMap((p) => p.rows);
    expect(regraded.map((r) => [r.txID, r.outcome])).toEqual(tx2.map((tx) => [tx, 'loser']));
    expect(walker.stats.regrades).toBe(3);

    // Latest version wins when the rows are folded by txID.
    const latest = new Map<string, GradedRow>();
    for (const r of [...rows, ...regraded]) latest.set(r.txID, r);
    expect(latest.size).toBe(133);
    expect(tx2.map((tx) => latest.get(tx)!.outcome)).toEqual(['loser', 'loser', 'loser']);

    // A restart: a new walker from the persisted settledThrough gives nothing twice.
    const checkpoint = walker.settledThrough!;
    const resumed = taker.client.gradedWalker({ resumeFrom: checkpoint, follow: false });
    const again = (await drain(resumed)).flatMap((p) => p.rows);
    expect(again).toEqual([]);
  });

  it('resumes inside a same-millisecond group without missing a row, and dedupes the repeats by txID', async () => {
    const { sim, time, maker, taker } = await setup();
    const g = sim.game();
    const txs = fills(sim, g, maker.user.id, taker.user.id, 150);
    time.advance(1_000);
    await result(sim, g.id, 90, 100); // 150 rows settled in the same millisecond
    time.advance(1_000);
    const walker = taker.client.gradedWalker({ since: new Date(T0).toISOString(), follow: false });
    const pages = await drain(walker, (_, i) => {
      // After the first page the cursor dies (server restart): the walker resumes from
      // settledThrough, gets the whole group again, and gives only the 50 it had not given.
      if (i === 0) (sim.sim.context as { secret: Buffer }).secret = Buffer.from('another secret entirely');
    });
    const p1 = pages[0]!;
    expect(p1.rows.map((r) => r.txID)).toEqual(txs.slice(0, 100));
    // The page ended inside the group, so settledThrough steps back before it (rule 6).
    expect(Date.parse(p1.settledThrough)).toBeLessThan(T0 + 1_000);
    const rest = pages.slice(1).flatMap((p) => p.rows);
    expect(rest.map((r) => r.txID)).toEqual(txs.slice(100));
    expect(walker.stats.duplicates).toBe(100);
    expect(walker.stats.cursorResets).toBe(1);
    // A fresh process resuming from that checkpoint has no memory: it gets the whole group,
    // which is what "never misses a bet" costs.
    const resumed = taker.client.gradedWalker({ resumeFrom: p1.settledThrough, follow: false });
    expect((await drain(resumed)).flatMap((p) => p.rows).map((r) => r.txID)).toEqual(txs);
  });

  it('polls once caught up and emits new settlements as they come, as an observable', async () => {
    const { sim, time, maker, taker } = await setup();
    const g = sim.game();
    time.advance(1_000);
    const walker = taker.client.gradedWalker({ since: new Date(T0).toISOString(), pollMs: 20 });
    const got = firstValueFrom(gradedPages$(walker).pipe(take(4), toArray()));
    await new Promise((r) => setTimeout(r, 60));
    const txs = fills(sim, g, maker.user.id, taker.user.id, 2);
    await result(sim, g.id, 90, 100);
    time.advance(1_000);
    const pages = await got;
    const rows = pages.flatMap((p) => p.rows);
    expect(rows.map((r) => r.txID)).toEqual(txs);
    expect(pages[0]!.rows).toEqual([]);
  });

  it('survives a cursor the server no longer accepts by resuming from settledThrough', async () => {
    const { sim, time, maker, taker } = await setup();
    const g = sim.game();
    fills(sim, g, maker.user.id, taker.user.id, 2);
    time.advance(1_000);
    await result(sim, g.id, 90, 100);
    time.advance(1_000);
    const walker = taker.client.gradedWalker({ since: new Date(T0).toISOString(), follow: false });
    expect((await drain(walker)).flatMap((p) => p.rows)).toHaveLength(2);
    // The server forgets its cursor key (as after a restart).
    (sim.sim.context as { secret: Buffer }).secret = Buffer.from('another secret entirely');
    const g2 = sim.game();
    const tx = fills(sim, g2, maker.user.id, taker.user.id, 1);
    await result(sim, g2.id, 90, 100);
    time.advance(1_000);
    const more = (await drain(walker)).flatMap((p) => p.rows);
    expect(more.map((r) => r.txID)).toEqual(tx);
    expect(walker.stats.cursorResets).toBe(1);
  });
});

describe('graded windows (getGraded ≤ 35 days)', () => {
  it('splits a long range and adds the windows up to what one unbounded read gives', async () => {
    const { sim, time, maker, taker } = await setup();
    const games = [
      sim.game({ start: T0 + 2 * DAY }),
      sim.game({ start: T0 + 40 * DAY }),
      sim.game({ start: T0 + 75 * DAY }),
    ];
    for (const g of games) fills(sim, g, maker.user.id, taker.user.id, 2, 10);
    time.advance(80 * DAY);
    for (const g of games) await result(sim, g.id, 90, 100);
    const ranged = await taker.client.readGradedRange(T0, T0 + 80 * DAY);
    expect(ranged.windows).toBe(3);
    expect(ranged.graded).toHaveLength(6);
    const whole = await taker.client.getGraded();
    expect(ranged.summary).toEqual(whole.summary);
    expect(ranged.graded.map((r) => r.txID).sort()).toEqual(whole.graded.map((r) => r.txID).sort());
    expect(splitWindows(0, 35 * DAY)).toEqual([{ from: 0, to: 35 * DAY }]);
    expect(splitWindows(0, 35 * DAY + 1)).toHaveLength(2);
  });
});
