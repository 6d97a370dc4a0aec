import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linesmith, type CliResult } from '../support/cli.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { clientFor } from './support-rest.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function account(args: string[], env: Record<string, string>): Promise<CliResult> {
  return linesmith(['account', ...args], { env });
}

describe('linesmith account', () => {
  it('logs in and prints balance, open orders and liability per game, from env or a credentials file', async () => {
    t = await startTestSim();
    const g = t.game({ league: 'NBA' });
    const [away, home] = g.participants;
    const { client: maker, user } = await clientFor(t, 'acct', { balance: 10_000 });
    const { client: taker } = await clientFor(t, 'other');
    await maker.place([
      { gameID: g.id, type: 'moneyline', side: home.id, odds: -110, bet: 110 },
      { gameID: g.id, type: 'total', side: 'over', number: 200.5, odds: 105, bet: 40 },
    ]);
    await taker.place([{ gameID: g.id, type: 'moneyline', side: away.id, odds: 110, bet: 50 }]);
    const liability = await maker.getGameLiability(g.id);
    await Promise.all([maker.close(), taker.close()]);

    const viaEnv = await account(['--base-url', t.url, '--json'], {
      LINESMITH_USERNAME: user.username,
      LINESMITH_PASSWORD: user.password,
    });
    expect(viaEnv.code).toBe(0);
    const report = JSON.parse(viaEnv.stdout);
    expect(report.user).toEqual({ id: user.id, username: 'acct' });
    expect(report.balance).toBe(10_000);
    expect(report.openOrders).toHaveLength(2);
    expect(report.games).toEqual([expect.objectContaining({ id: g.id, liability, openBets: 1, openOrders: 2 })]);

    const dir = await mkdtemp(join(tmpdir(), 'ls-acct-'));
    const creds = join(dir, 'creds.yaml');
    await writeFile(creds, `username: acct\npassword: ${user.password}\n`, { mode: 0o600 });
    const viaFile = await account(['--base-url', t.url, '--credentials', creds], {});
    expect(viaFile.code).toBe(0);
    expect(viaFile.stdout).toMatch(/account acct/);
    expect(viaFile.stdout).toMatch(/balance 10000\.00/);
    expect(viaFile.stdout).toMatch(/open orders: 2/);
    expect(viaFile.stdout).toContain(`${g.id}`);
    expect(viaFile.stdout).toContain(liability.toFixed(2));
    expect(viaFile.stdout + viaFile.stderr).not.toContain(user.password);
  });

  it('fails with a clear message and exit 1 on missing credentials, bad credentials, and plain http off loopback', async () => {
    t = await startTestSim();
    const none = await account(['--base-url', t.url], { LINESMITH_USERNAME: '', LINESMITH_PASSWORD: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/LINESMITH_USERNAME and LINESMITH_PASSWORD.*LS_ERR_CREDENTIALS/);
    const bad = await account(['--base-url', t.url], {
      LINESMITH_USERNAME: 'nobody',
      LINESMITH_PASSWORD: 'secret-pw-123',
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/refused the username or password.*LS_ERR_AUTHENTICATION/);
    expect(bad.stderr).not.toContain('secret-pw-123');
    const plain = await account(['--base-url', 'http://exchange.example.com'], {
      LINESMITH_USERNAME: 'a',
      LINESMITH_PASSWORD: 'b',
    });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/refusing plain http.*LS_ERR_INSECURE_TRANSPORT/);
  });
});
