import type { PriceClientFrame, PriceSubscribeFrame } from '../schemas/price-feed.ts';

/** What to narrow the price feed to; league and sport match case-insensitively. */
export interface PriceSelection {
  readonly gameIDs?: readonly string[];
  readonly leagueIDs?: readonly string[];
  readonly sportIDs?: readonly string[];
}

export interface PriceSubscriptionSnapshot {
  readonly all: boolean;
  readonly gameIDs: readonly string[];
  readonly leagueIDs: readonly string[];
  readonly sportIDs: readonly string[];
}

/**
 * The subscription the client wants, kept by applying each command the way the server
 * does (feeds-and-semantics §2), so that a fresh connection — which starts at
 * broadcast-all — can be brought back to it with one replacing subscribe.
 */
export class PriceSubscriptions {
  #all = true;
  readonly #games = new Set<string>();
  readonly #leagues = new Set<string>();
  readonly #sports = new Set<string>();

  /** Apply a subscribe; the frame to send now, or null when it changes nothing (all-empty additive). */
  subscribe(selection: PriceSelection, replace: boolean): PriceSubscribeFrame | null {
    const games = clean(selection.gameIDs, false);
    const leagues = clean(selection.leagueIDs, true);
    const sports = clean(selection.sportIDs, true);
    const empty = games.length + leagues.length + sports.length === 0;
    if (!replace && empty) return null;
    // A replace, or the first narrowing subscribe out of broadcast-all, starts from nothing.
    if (replace || this.#all) this.#clear();
    this.#all = false;
    for (const g of games) this.#games.add(g);
    for (const l of leagues) this.#leagues.add(l);
    for (const s of sports) this.#sports.add(s);
    return { type: 'subscribe', gameIDs: games, leagueIDs: leagues, sportIDs: sports, replace };
  }

  unsubscribe(selection: PriceSelection): PriceClientFrame {
    const games = clean(selection.gameIDs, false);
    const leagues = clean(selection.leagueIDs, true);
    const sports = clean(selection.sportIDs, true);
    for (const g of games) this.#games.delete(g);
    for (const l of leagues) this.#leagues.delete(l);
    for (const s of sports) this.#sports.delete(s);
    return { type: 'unsubscribe', gameIDs: games, leagueIDs: leagues, sportIDs: sports };
  }

  subscribeAll(): PriceClientFrame {
    this.#all = true;
    this.#clear();
    return { type: 'subscribeAll' };
  }

  /** Frames that install the whole state on a new connection; none for broadcast-all, the server's default. */
  restoreFrames(): PriceClientFrame[] {
    if (this.#all) return [];
    return [
      {
        type: 'subscribe',
        gameIDs: [...this.#games],
        leagueIDs: [...this.#leagues],
        sportIDs: [...this.#sports],
        replace: true,
      },
    ];
  }

  snapshot(): PriceSubscriptionSnapshot {
    return { all: this.#all, gameIDs: [...this.#games], leagueIDs: [...this.#leagues], sportIDs: [...this.#sports] };
  }

  #clear(): void {
    this.#games.clear();
    this.#leagues.clear();
    this.#sports.clear();
  }
}

function clean(list: readonly string[] | undefined, lower: boolean): string[] {
  const out: string[] = [];
  for (const raw of list ?? []) {
    const v = raw.trim();
    if (v !== '') out.push(lower ? v.toLowerCase() : v);
  }
  return out;
}
