import { describe, expect, it } from 'vitest';
import { home, place, startSim, closeAfterEach } from './support.ts';

closeAfterEach();

describe('GET /v2/user/messages', () => {
  async function withMessages() {
    const t = await startSim();
    const u = await t.user('ps-replay');
    const g = t.game();
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 150, bet: 10 });
    place(t, u.id, { gameID: g.id, type: 'moneyline', side: home(g), odds: 160, bet: 10 });
    return { sim: t, u };
  }

  it('answers 400 {error} without afterID', async () => {
    const { sim, u } = await withMessages();
    const r = await sim.http('GET', '/v2/user/messages', { token: u.token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.stringContaining('afterID') });
    const empty = await sim.http('GET', '/v2/user/messages?afterID=', { token: u.token });
    expect(empty.status).toBe(400);
  });

  it('takes the token in Authorization, in an Auth header, or as a token query parameter', async () => {
    const { sim, u } = await withMessages();
    const byAuthorization = await sim.http('GET', '/v2/user/messages?afterID=0-0', { token: u.token, raw: true });
    expect(byAuthorization.status).toBe(200);
    expect(byAuthorization.body.messages).toHaveLength(2);
    const byAuth = await sim.http('GET', '/v2/user/messages?afterID=0-0', { headers: { auth: u.token } });
    expect(byAuth.status).toBe(200);
    expect(byAuth.body).toEqual(byAuthorization.body);
    const byQuery = await sim.http('GET', `/v2/user/messages?afterID=0-0&token=${u.token}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toEqual(byAuthorization.body);
    expect((await sim.http('GET', '/v2/user/messages?afterID=0-0')).status).toBe(401);
    expect(
      (await sim.http('GET', '/v2/user/messages?afterID=0-0', { headers: { auth: 'f'.repeat(256) } })).status,
    ).toBe(401);
    expect((await sim.http('GET', `/v2/user/messages?afterID=0-0&token=${'e'.repeat(256)}`)).status).toBe(401);
  });
});
