import { z } from 'zod';

const idList = z.array(z.string()).nullish();

const SubscribeFrame = z.object({
  type: z.literal('subscribe'),
  gameIDs: idList,
  leagueIDs: idList,
  sportIDs: idList,
  replace: z.boolean().nullish(),
});

const UnsubscribeFrame = z.object({
  type: z.literal('unsubscribe'),
  gameIDs: idList,
  leagueIDs: idList,
  sportIDs: idList,
});

const SubscribeAllFrame = z.object({ type: z.literal('subscribeAll') });

/** A client frame of the price feed (feeds-and-semantics §2). */
export const PriceClientFrame = z.discriminatedUnion('type', [SubscribeFrame, UnsubscribeFrame, SubscribeAllFrame]);
export type PriceClientFrame = z.infer<typeof PriceClientFrame>;

/** What an update is about, as the filter matches it; league and sport already lowercased. */
export interface UpdateKey {
  readonly gameID: string;
  readonly parentGameID: string | null;
  readonly league: string;
  readonly sport: string;
}

export function updateKey(game: {
  readonly id: string;
  readonly parentGameID?: string | null | undefined;
  readonly league: string;
  readonly sport: string;
}): UpdateKey {
  return {
    gameID: game.id,
    parentGameID: game.parentGameID ?? null,
    league: game.league.toLowerCase(),
    sport: game.sport.toLowerCase(),
  };
}

/**
 * One price-feed connection's subscription. Broadcast-all until narrowed; then an update
 * is delivered when its game, parent game, league or sport is subscribed (league and
 * sport case-insensitive, empty strings ignored). At most `maxIds` ids are held, games,
 * leagues and sports together: a frame that would hold more is refused whole.
 */
export class PriceFilter {
  #all = true;
  readonly #games = new Set<string>();
  readonly #leagues = new Set<string>();
  readonly #sports = new Set<string>();

  constructor(readonly maxIds = Infinity) {}

  get broadcastAll(): boolean {
    return this.#all;
  }

  /** Ids held, games, leagues and sports together. */
  get size(): number {
    return this.#games.size + this.#leagues.size + this.#sports.size;
  }

  /**
   * Apply a parsed client frame; null when applied, else why it was refused (nothing
   * changed). The work is that of the frame, whatever the subscription already holds.
   */
  apply(frame: PriceClientFrame): string | null {
    switch (frame.type) {
      case 'subscribeAll':
        this.#all = true;
        this.#clear();
        return null;
      case 'subscribe': {
        const games = clean(frame.gameIDs, false);
        const leagues = clean(frame.leagueIDs, true);
        const sports = clean(frame.sportIDs, true);
        const empty = games.length + leagues.length + sports.length === 0;
        // What replace or the first narrowing subscribe leaves: exactly what the frame names.
        const fresh = frame.replace === true || (this.#all && !empty);
        if (!fresh && empty) return null; // an all-empty additive subscribe is a no-op
        const after =
          (fresh ? 0 : this.size) +
          added(this.#games, games, fresh) +
          added(this.#leagues, leagues, fresh) +
          added(this.#sports, sports, fresh);
        if (after > this.maxIds) return limitMessage(this.maxIds, after);
        if (fresh) {
          // An all-empty replace means "nothing until I subscribe again".
          this.#all = false;
          this.#clear();
        }
        for (const g of games) this.#games.add(g);
        for (const l of leagues) this.#leagues.add(l);
        for (const s of sports) this.#sports.add(s);
        return null;
      }
      case 'unsubscribe':
        for (const g of clean(frame.gameIDs, false)) this.#games.delete(g);
        for (const l of clean(frame.leagueIDs, true)) this.#leagues.delete(l);
        for (const s of clean(frame.sportIDs, true)) this.#sports.delete(s);
        return null;
    }
  }

  matches(key: UpdateKey): boolean {
    if (this.#all) return true;
    if (this.#games.size > 0) {
      if (key.gameID !== '' && this.#games.has(key.gameID)) return true;
      if (key.parentGameID !== null && key.parentGameID !== '' && this.#games.has(key.parentGameID)) return true;
    }
    if (key.league !== '' && this.#leagues.has(key.league)) return true;
    if (key.sport !== '' && this.#sports.has(key.sport)) return true;
    return false;
  }

  /** For logs and tests. */
  snapshot(): { all: boolean; gameIDs: string[]; leagueIDs: string[]; sportIDs: string[] } {
    return { all: this.#all, gameIDs: [...this.#games], leagueIDs: [...this.#leagues], sportIDs: [...this.#sports] };
  }

  #clear(): void {
    this.#games.clear();
    this.#leagues.clear();
    this.#sports.clear();
  }
}

/** Distinct ids of `ids` a subscription would gain: all of them when it starts afresh, else those it lacks. */
function added(held: ReadonlySet<string>, ids: readonly string[], fresh: boolean): number {
  const distinct = new Set(ids);
  if (fresh) return distinct.size;
  let n = 0;
  for (const id of distinct) if (!held.has(id)) n++;
  return n;
}

function clean(list: readonly string[] | null | undefined, lower: boolean): string[] {
  if (!list) return [];
  const out: string[] = [];
  for (const raw of list) {
    const v = raw.trim();
    if (v !== '') out.push(lower ? v.toLowerCase() : v);
  }
  return out;
}

export type ParsedPriceClientFrame =
  | { readonly ok: true; readonly frame: PriceClientFrame }
  /** `overLimit`: a subscribe naming more ids than a connection may hold (answered with an error frame). */
  | { readonly ok: false; readonly problem: string; readonly overLimit: boolean };

/**
 * Parse a text frame. A subscribe naming more than `maxIds` ids is refused before it is
 * validated, so such a frame costs its JSON parse and nothing more.
 */
export function parsePriceClientFrame(text: string, maxIds = Infinity): ParsedPriceClientFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON', overLimit: false };
  }
  const named = namedIds(json);
  if (named > maxIds) return { ok: false, problem: limitMessage(maxIds, named), overLimit: true };
  const parsed = PriceClientFrame.safeParse(json);
  return parsed.success
    ? { ok: true, frame: parsed.data }
    : {
        ok: false,
        problem: `invalid frame: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        overLimit: false,
      };
}

function limitMessage(maxIds: number, ids: number): string {
  return `subscription limit: at most ${maxIds} game, league and sport ids per connection (this frame would hold ${ids})`;
}

/** Entries of a subscribe frame's three lists, duplicates and blanks included; 0 for anything else. */
function namedIds(json: unknown): number {
  if (json === null || typeof json !== 'object' || (json as { type?: unknown }).type !== 'subscribe') return 0;
  const f = json as Record<string, unknown>;
  let n = 0;
  for (const list of [f.gameIDs, f.leagueIDs, f.sportIDs]) if (Array.isArray(list)) n += list.length;
  return n;
}
