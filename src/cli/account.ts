import type { Command } from 'commander';
import type { Logger } from 'pino';
import { resolveCredentials } from '../exchange/auth/credentials.ts';
import { FileTokenStore } from '../exchange/auth/token-store.ts';
import { LinesmithError } from '../shared/errors.ts';
import { ExchangeRestClient } from '../exchange/rest/rest-client.ts';
import type { Game } from '../exchange/schemas/game.ts';
import { formatMoney } from '../money/rounding.ts';
import { createLogger } from '../shared/logger.ts';
import { worstCasesWithResting } from './account-worst-case.ts';
import { runtimeFailure, usageError } from './exit-codes.ts';
import { LOG_LEVELS } from '../config/fields.ts';

interface AccountCliOptions {
  readonly baseUrl: string;
  readonly credentials?: string;
  readonly tokenFile?: string;
  readonly json?: boolean;
  readonly logLevel: string;
}

/** What `linesmith account` shows: the account, its open orders, and its liability per game. */
export interface AccountReport {
  readonly user: { id: string; username: string };
  readonly balance: number;
  readonly creditLimit: number | null;
  readonly exposure: number | null;
  readonly commissionRate: number | null;
  readonly openOrders: readonly {
    id: string;
    game: string;
    market: string;
    odds: number;
    offered: number;
    filled: number;
    remaining: number;
    userReference: string | null;
  }[];
  /**
   * Per game: `liability` is the exchange's figure (getGameLiability: matched bets only);
   * `restingStake` the stake of our orders still open on it; `worstWithResting` the exact
   * worst case over every final score were each resting order filled, from the matched bets
   * and the resting orders as linesmith's risk gate counts them (account-worst-case.ts).
   */
  readonly games: readonly {
    id: string;
    label: string;
    liability: number;
    restingStake: number;
    worstWithResting: number;
    openBets: number;
    openOrders: number;
  }[];
}

const gameLabel = (g: Game | null | undefined, id: string) =>
  g ? `${g.participants[0]?.shortName ?? '?'} @ ${g.participants[1]?.shortName ?? '?'} (${g.league})` : id;

function marketLabel(o: {
  type: string;
  spread?: number | null;
  total?: number | null;
  OU?: string | null;
  side?: string | null;
}): string {
  if (o.type === 'spread') return `spread ${o.spread ?? ''}`;
  if (o.type === 'total') return `total ${o.total ?? ''}`;
  if (o.type === 'moneyline1x2') return `1x2 ${o.side ?? ''}`;
  return o.type;
}

/** Log in, read the account, open orders and every game's worst-case liability. */
export async function readAccount(client: ExchangeRestClient): Promise<AccountReport> {
  const user = await client.login();
  const [me, unmatched, bets] = await Promise.all([client.getMe(), client.getUnmatched(), client.getMatchedBets()]);
  const games = new Map<string, { game: Game | null; openBets: number; openOrders: number; restingStake: number }>();
  const touch = (id: string, game: Game | null | undefined) => {
    const e = games.get(id) ?? { game: null, openBets: 0, openOrders: 0, restingStake: 0 };
    e.game ??= game ?? null;
    games.set(id, e);
    return e;
  };
  for (const o of unmatched) {
    if (!o.game) continue;
    const e = touch(o.game.id, o.game);
    e.openOrders++;
    e.restingStake += o.remaining;
  }
  for (const b of bets) if (b.game) touch(b.game.id, b.game).openBets++;
  const liabilities = await Promise.all([...games.keys()].map((id) => client.getGameLiability(id)));
  const worst = await worstCasesWithResting(
    new Map([...games].map(([id, e]) => [id, e.game])),
    unmatched,
    bets,
    me.commissionCharged ?? 0,
    (orderID) => client.lookupOrder(orderID),
  );
  return {
    user,
    balance: me.displayBalance,
    creditLimit: me.creditLimit ?? null,
    exposure: me.liability ?? null,
    commissionRate: me.commissionCharged ?? null,
    openOrders: unmatched.map((o) => ({
      id: o.id,
      game: gameLabel(o.game, o.game?.id ?? '?'),
      market: marketLabel(o),
      odds: o.odds,
      offered: o.offered,
      filled: o.filled,
      remaining: o.remaining,
      userReference: o.userReference ?? null,
    })),
    games: [...games.entries()].map(([id, e], i) => ({
      id,
      label: gameLabel(e.game, id),
      liability: liabilities[i]!,
      restingStake: e.restingStake,
      worstWithResting: worst.get(id) ?? liabilities[i]! - e.restingStake,
      openBets: e.openBets,
      openOrders: e.openOrders,
    })),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '))
    .join('\n');
}

export function renderAccount(r: AccountReport): string {
  const lines = [
    `account ${r.user.username} (${r.user.id})`,
    [
      `balance ${formatMoney(r.balance)}`,
      r.creditLimit !== null ? `  credit ${formatMoney(r.creditLimit)}` : '',
      r.exposure !== null
        ? `  exposure ${formatMoney(r.exposure)} (the exchange's hold: matched bets and resting orders)`
        : '',
      r.commissionRate !== null ? `  commission ${(r.commissionRate * 100).toFixed(2)}%` : '',
    ].join(''),
    '',
    `open orders: ${r.openOrders.length}`,
  ];
  if (r.openOrders.length > 0) {
    lines.push(
      table([
        ['order', 'game', 'market', 'odds', 'offered', 'filled', 'remaining'],
        ...r.openOrders.map((o) => [
          o.id,
          o.game,
          o.market,
          String(o.odds),
          formatMoney(o.offered),
          formatMoney(o.filled),
          formatMoney(o.remaining),
        ]),
      ]),
    );
  }
  lines.push('', `liability per game: ${r.games.length}`);
  if (r.games.length > 0) {
    lines.push(
      table([
        [
          'game',
          'id',
          'open bets',
          'open orders',
          'matched bets (exchange)',
          'resting stake',
          'worst case, resting filled',
        ],
        ...r.games.map((g) => [
          g.label,
          g.id,
          String(g.openBets),
          String(g.openOrders),
          formatMoney(g.liability),
          formatMoney(g.restingStake),
          formatMoney(g.worstWithResting),
        ]),
      ]),
      `worst case over all games: matched bets ${formatMoney(r.games.reduce((s, g) => s + g.liability, 0))} (the exchange's liability, matched bets only); ` +
        `with every resting order filled, ${formatMoney(r.games.reduce((s, g) => s + g.worstWithResting, 0))} ` +
        "(each game's exact worst case over every score, summed; the exchange's exposure above is its own hold over the account)",
    );
  }
  return lines.join('\n');
}

export function registerAccount(program: Command): void {
  program
    .command('account')
    .description(
      'log in and print the balance, open orders and worst-case liability per game (real exchange or simulator alike)',
    )
    .requiredOption('--base-url <url>', 'exchange base URL (https://…, or http://127.0.0.1:PORT for linesmith sim)')
    .option(
      '--credentials <file>',
      'YAML/JSON file with username and password (default: LINESMITH_USERNAME and LINESMITH_PASSWORD)',
    )
    .option('--token-file <file>', 'keep the auth token here between runs (mode 600)')
    .option('--json', 'print JSON instead of tables')
    .option('--log-level <level>', 'log level on stderr', 'warn')
    .action(async (o: AccountCliOptions) => {
      if (!(LOG_LEVELS as readonly string[]).includes(o.logLevel))
        return usageError('account', `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${o.logLevel}"`);
      const logger: Logger = createLogger({ level: o.logLevel });
      let client: ExchangeRestClient | null = null;
      try {
        client = new ExchangeRestClient({
          baseUrl: o.baseUrl,
          credentials: resolveCredentials({ file: o.credentials, onWarning: (m) => logger.warn(m) }),
          tokenStore: o.tokenFile ? new FileTokenStore(o.tokenFile) : null,
          logger,
        });
        const report = await readAccount(client);
        process.stdout.write((o.json ? JSON.stringify(report, null, 2) : renderAccount(report)) + '\n');
      } catch (err) {
        runtimeFailure(
          'account',
          err instanceof LinesmithError
            ? `${err.message} [${err.code}]`
            : err instanceof Error
              ? err.message
              : String(err),
        );
      } finally {
        await client?.close();
      }
    });
}
