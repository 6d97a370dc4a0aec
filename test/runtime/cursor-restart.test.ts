import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { strategies } from '../../src/app/strategy-registry.ts';
import { defaultStrategyResolver, loadConfig } from '../../src/config/index.ts';
import { parseMessageId, compareMessageIds } from '../../src/exchange/socket/message-id.ts';
import { startSession } from '../../src/app/session.ts';
import { capturedLogger } from '../exchange/support-rest.ts';
import { until } from '../exchange/support-socket.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const cursorIn = async (path: string): Promise<string> => {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text ? (JSON.parse(text) as { cursor: string }).cursor : '';
};

describe('a live run keeps the user feed cursor across a restart', () => {
  it('saves the last message processed, and the next run replays what happened while it was down', async () => {
    t = await startTestSim();
    const g = t.game({ league: 'NBA' });
    const home = g.participants[1];
    const bot = await t.user('bot', { balance: 10_000 });
    const dir = await mkdtemp(join(tmpdir(), 'ls-restart-'));
    const cursorFile = join(dir, 'cursor');
    await writeFile(join(dir, 'login.yaml'), `username: ${bot.username}\npassword: ${bot.password}\n`, { mode: 0o600 });
    // The strategy quotes nothing (no league matches): every user-feed message comes from the account's own REST places.
    await writeFile(
      join(dir, 'run.yaml'),
      [
        'venue:',
        `  baseUrl: ${t.url}`,
        '  credentials: { file: login.yaml }',
        '  cursorFile: cursor',
        'strategies:',
        '  - { id: idle, module: fixed-spread, params: {}, interest: { leagues: [NONE] } }',
        'risk: { maxGameLiability: 500, maxTotalLiability: 5000, maxOrderSize: 100, maxOrdersPerGame: 40, cancelUnknownOrdersAtStart: false }',
        '',
      ].join('\n'),
    );
    const config = await loadConfig(join(dir, 'run.yaml'), { resolveStrategy: defaultStrategyResolver(strategies) });
    // The same account from another process: what it does reaches the bot's user feed.
    const hand = new ExchangeRestClient({
      baseUrl: t.url,
      credentials: async () => ({ username: bot.username, password: bot.password }),
      runId: 'hand',
    });
    const post = (odds: number) => hand.place([{ gameID: g.id, type: 'moneyline', side: home.id, odds, bet: 10 }]);

    const first = capturedLogger('info');
    const s1 = await startSession({ config, mode: 'live', logger: first.logger });
    await post(-150);
    await vi.waitFor(async () => expect(await cursorIn(cursorFile)).not.toBe(''), { timeout: 10_000, interval: 25 });
    s1.stop('test');
    await s1.done;
    const saved = await cursorIn(cursorFile);
    expect(parseMessageId(saved)).not.toBeNull();

    // Down: two more messages for the account (placed, then cancelled).
    const [missed] = await post(-160);
    if (missed?.status !== 'accepted' || !missed.resting)
      throw new Error(`the order placed while down did not rest: ${JSON.stringify(missed)}`);
    expect((await hand.cancel([missed.resting.orderID]))[0]).toMatchObject({ ok: true });

    const second = capturedLogger('info');
    const s2 = await startSession({ config, mode: 'live', logger: second.logger });
    await until(() => second.lines.some((l) => l.includes('user feed replay done')), 10_000, 'the replay');
    s2.stop('test');
    await s2.done;
    await hand.close();

    const replay = JSON.parse(second.lines.find((l) => l.includes('user feed replay done'))!);
    expect(replay.afterID).toBe(saved);
    expect(replay.replayed).toBeGreaterThanOrEqual(2);
    expect(second.lines.some((l) => l.includes('gap the replay cannot fill'))).toBe(false);
    const after = await cursorIn(cursorFile);
    expect(compareMessageIds(parseMessageId(after)!, parseMessageId(saved)!)).toBeGreaterThan(0);
  }, 30_000);
});
