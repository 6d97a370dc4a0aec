import type { MarketType } from '../../markets/types.ts';
import type { EngineGame } from '../../engine/types.ts';
import type { SimUser } from '../accounts.ts';
import type { SimContext } from '../context.ts';

export interface CreateUserInput {
  readonly username: string;
  readonly password: string;
  readonly email?: string | null;
  readonly balance?: number;
  readonly creditLimit?: number;
  readonly commission?: number;
  readonly referrer?: string | null;
}

export type OpResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: number; readonly error: string };

/** Create an account in the directory and the engine (balance 10000 and commission 0.01 by default). */
export function createUser(ctx: SimContext, input: CreateUserInput): OpResult<SimUser> {
  const user = ctx.accounts.create({
    username: input.username,
    password: input.password,
    email: input.email ?? null,
    referrer: input.referrer ?? null,
    now: ctx.time.clock.now(),
  });
  if (user === 'duplicate')
    return { ok: false, status: 409, error: `username or email already taken: ${input.username}` };
  const added = ctx.engine.addUser({
    id: user.id,
    balance: input.balance ?? 10_000,
    creditLimit: input.creditLimit ?? 0,
    commissionRate: input.commission ?? 0.01,
  });
  if (!added.ok) return { ok: false, status: 400, error: added.error.message };
  return { ok: true, value: user };
}

export interface CreateGameInput {
  readonly league: string;
  readonly sport: string;
  readonly participants: readonly [
    { readonly longName: string; readonly shortName: string },
    { readonly longName: string; readonly shortName: string },
  ];
  /** ms since the epoch; defaults to two hours from now. */
  readonly start?: number;
  readonly live?: boolean;
  readonly eventName?: string;
  readonly tournamentName?: string | null;
  readonly markets?: readonly MarketType[];
  readonly parentGameID?: string | null;
}

/** Create a game (participants away first, then home) with fresh 24-hex ids. */
export function createGame(ctx: SimContext, input: CreateGameInput): OpResult<EngineGame> {
  const [away, home] = input.participants;
  const added = ctx.engine.addGame({
    id: ctx.ids.next(),
    league: input.league,
    sport: input.sport,
    participants: [
      { id: ctx.ids.next(), longName: away.longName, shortName: away.shortName },
      { id: ctx.ids.next(), longName: home.longName, shortName: home.shortName },
    ],
    start: input.start ?? ctx.time.clock.now() + 2 * 3_600_000,
    ...(input.live !== undefined ? { live: input.live } : {}),
    ...(input.eventName !== undefined ? { eventName: input.eventName } : {}),
    ...(input.tournamentName !== undefined ? { tournamentName: input.tournamentName } : {}),
    ...(input.markets !== undefined ? { markets: input.markets } : {}),
    ...(input.parentGameID !== undefined ? { parentGameID: input.parentGameID } : {}),
  });
  ctx.pump.kick();
  return added.ok ? { ok: true, value: added.value } : { ok: false, status: 400, error: added.error.message };
}
