import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { decompressedText, recordSim, type SimRecording } from './support.ts';

let t: TestSim | undefined;
let rec: SimRecording | undefined;
afterEach(async () => {
  await rec?.stop();
  rec = undefined;
  await t?.close();
  t = undefined;
});

describe('FeedRecorder: no secrets in the files', () => {
  it('a session with user-feed traffic, a reconnect and a result leaves neither the token nor the password in the decompressed files', async () => {
    t = await startTestSim();
    const game = t.game();
    const password = 'Pw-recorder-9f3a7c1e5b2d';
    rec = await recordSim(t, 'secretive', { password });
    const tokens = new Set<string>([await rec.client.rest.session.token()]);
    await until(() => rec!.recorder.stats.snapshots > 0, 5_000, 'the start snapshot');

    const [placed] = await rec.client.rest.place([
      { gameID: game.id, type: 'moneyline', side: game.participants[0].id, odds: 120, bet: 15, orderType: 'post' },
    ]);
    if (placed?.status !== 'accepted' || !placed.resting) throw new Error(`place failed: ${JSON.stringify(placed)}`);
    await until(() => rec!.received.user.length > 0, 5_000, 'the user feed message');
    // A reconnect sends the token in a new handshake and the user feed replays over REST with it.
    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 200 } });
    await until(() => rec!.recorder.stats.gaps >= 2, 5_000, 'gaps on both feeds');
    await t.http('POST', '/admin/faults', { body: { dropSocketsEveryMs: 0 } });
    await t.http('POST', `/admin/games/${game.id}/result`, { body: { awayScore: 3, homeScore: 1 } });
    await until(() => rec!.recorder.stats.results > 0, 5_000, 'the result');
    tokens.add(await rec.client.rest.session.token());
    await rec.stop();

    const text = await decompressedText(rec.dir);
    // The search runs on the decompressed text: what the session did is in it…
    expect(text).toContain(placed.resting.orderID);
    expect(text).toContain('"k":"user"');
    expect(text).toContain('"k":"gap"');
    expect(text).toContain('"k":"result"');
    // …and the secrets are not, in any spelling a careless writer might use.
    for (const token of tokens) {
      expect(token.length).toBeGreaterThan(20);
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(0, 24));
      expect(text).not.toContain(Buffer.from(token).toString('base64').slice(0, 24));
    }
    expect(text).not.toContain(password);
    expect(text).not.toContain(JSON.stringify(password).slice(1, -1));
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});
