import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { editLeavesOriginal } from '../../src/exchange/orders/types.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';

let t: TestSim | undefined;
const clients: ExchangeRestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await t?.close();
  t = undefined;
});

async function setup(options: Parameters<typeof clientFor>[2] = {}) {
  t = await startTestSim();
  const g = t.game();
  const { client, user } = await clientFor(t, 'mm', options);
  clients.push(client);
  await client.login();
  const engine = t.sim.context.engine;
  const home = g.participants[1].id;
  const away = g.participants[0].id;
  const rest = async (odds: number, ref: string, side = home) => {
    const [e] = await client.place([
      { gameID: g.id, type: 'moneyline', side, odds, bet: 100, orderType: 'post', userReference: ref },
    ]);
    expect(e?.status).toBe('accepted');
    return (e as { resting: { orderID: string } }).resting.orderID;
  };
  return { t: t!, g, client, user, engine, home, away, rest };
}

describe('the REST client as the order manager gateway: edit', () => {
  it('accepted: amended under its id with the new reference; the original as it was before', async () => {
    const s = await setup();
    const id = await s.rest(110, 'ls1:s:c1');
    const e = await s.client.edit!({ orderID: id, odds: 125, bet: 80, orderType: 'post', userReference: 'ls1:s:c2' });
    expect(e).toMatchObject({
      status: 'accepted',
      original: { ok: true, orderID: id, filled: 0 },
      matched: [],
      resting: { orderID: id, offered: 80, odds: 125, userReference: 'ls1:s:c2' },
    });
    expect(s.engine.openOrders(s.user.id)).toEqual([
      expect.objectContaining({ id, odds: 125, remaining: 80, userReference: 'ls1:s:c2' }),
    ]);
  });

  it('refused on its terms (a post that would cross): rejected with the errorType that says the original rests on', async () => {
    const s = await setup();
    const id = await s.rest(110, 'ls1:s:c1');
    // Someone backs away at +105: our home post at -105 would meet it.
    const other = await s.t.user('other');
    s.engine.place(other.id, [
      { gameID: s.g.id, type: 'moneyline', side: s.away, odds: 105, bet: 50, orderType: 'post' },
    ]);
    const e = await s.client.edit!({ orderID: id, odds: -110, bet: 100, orderType: 'post', userReference: 'ls1:s:c2' });
    expect(e).toMatchObject({ status: 'rejected', errorType: 'rejected_order_type_rules' });
    expect(editLeavesOriginal((e as { errorType: string }).errorType)).toBe(true);
    expect(s.engine.openOrders(s.user.id)).toEqual([
      expect.objectContaining({ id, odds: 110, userReference: 'ls1:s:c1' }),
    ]);
  });

  it('refused because the order is gone: an errorType that does not say the original rests on', async () => {
    const s = await setup();
    const id = await s.rest(110, 'ls1:s:c1');
    await s.client.cancel([id]);
    const e = await s.client.edit!({ orderID: id, odds: 125, bet: 100, orderType: 'post', userReference: 'ls1:s:c2' });
    expect(e.status).toBe('rejected');
    expect(editLeavesOriginal((e as { errorType: string }).errorType)).toBe(false);
  });
});

describe('the REST client as the order manager gateway: cancel everything', () => {
  it('cancelAllOfAccount and cancelAllOfGame: one request each, the results of what they cancelled', async () => {
    const s = await setup();
    const g2 = s.t.game();
    const a = await s.rest(110, 'ls1:s:a');
    const [b] = await s.client.place([
      {
        gameID: g2.id,
        type: 'moneyline',
        side: g2.participants[1].id,
        odds: 110,
        bet: 100,
        orderType: 'post',
        userReference: 'ls1:s:b',
      },
    ]);
    const bId = (b as { resting: { orderID: string } }).resting.orderID;
    const game = await s.client.cancelAllOfGame!(s.g.id);
    expect(game).toEqual([expect.objectContaining({ ok: true, orderID: a, userReference: 'ls1:s:a' })]);
    expect(s.engine.openOrders(s.user.id).map((o) => o.id)).toEqual([bId]);
    const all = await s.client.cancelAllOfAccount!();
    expect(all).toEqual([expect.objectContaining({ ok: true, orderID: bId })]);
    expect(s.engine.openOrders(s.user.id)).toEqual([]);
  });
});

describe('place recovery against the simulator', () => {
  it('a place whose answer never comes is found by getBetByUserReference, with no listing read', async () => {
    const s = await setup({ timeoutMs: 400 });
    const calls = { exact: 0, unmatched: 0, bets: 0 };
    const c = s.client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const [name, key] of [
      ['getBetByUserReference', 'exact'],
      ['getUnmatched', 'unmatched'],
      ['getMatchedBets', 'bets'],
    ] as const) {
      const real = c[name]!.bind(s.client);
      c[name] = (...args: unknown[]) => (calls[key]++, real(...args));
    }
    s.t.sim.context.faults.restHangRate = 1;
    const placing = s.client.place([
      {
        gameID: s.g.id,
        type: 'moneyline',
        side: s.home,
        odds: 110,
        bet: 100,
        orderType: 'post',
        userReference: 'ls1:s:lost',
      },
    ]);
    for (let i = 0; i < 200 && s.engine.openOrders(s.user.id).length === 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    s.t.sim.context.faults.restHangRate = 0;
    const [e] = await placing;
    expect(e).toMatchObject({
      status: 'recovered',
      userReference: 'ls1:s:lost',
      resting: { userReference: 'ls1:s:lost', remaining: 100 },
    });
    expect(calls.exact).toBeGreaterThanOrEqual(1);
    expect(calls.unmatched + calls.bets).toBe(0);
  });
});
