import type { MatchingEngine } from '../../engine/engine.ts';
import type { EngineGame, OrderView } from '../../engine/types.ts';
import type { CancelEntry, CancelledOrder, EditEntry, PlaceEntry } from '../../exchange/orders/types.ts';
import { gatewayEditOf } from '../../exchange/rest/gateway-capabilities.ts';
import { classifyMessage } from '../../exchange/socket/user-feed-events.ts';
import { USER_FEED_PLATFORM, type UserFeedItem, type UserFeedMessage } from '../../sim/feeds/user-feed-messages.ts';
import { describeOrder } from '../../sim/ops/describe.ts';
import { iso } from '../../sim/render/time.ts';
import type { VenueAnswers } from './answers.ts';
import { TypedGradedRows } from './graded-typed.ts';

/**
 * The answers built straight from the engine replica's outcomes, with no wire payload
 * rendered and parsed back: each value is the one the wire build (answers-wire.ts) reads,
 * field for field, which the wire-versus-typed contract test holds them to. The engine's
 * place results already have the wire's fields (a fill's and a resting order's), so they
 * pass as they are; a cancel's amounts are those of the order at the moment it closed.
 */
export function typedAnswers(engine: MatchingEngine): VenueAnswers {
  const envelopes = new Envelopes();
  const graded = new TypedGradedRows();
  // The last description spelt, and what it was spelt from: a quote is cancelled and placed
  // again at the same few prices, so most cancels describe what the one before did.
  let describedGame: EngineGame | undefined;
  let describedSelection: OrderView['selection'] | null = null;
  let describedOdds = Number.NaN;
  let described = '';
  const describe = (game: EngineGame | undefined, o: OrderView): string => {
    if (game !== describedGame || o.selection !== describedSelection || o.odds !== describedOdds) {
      describedGame = game;
      describedSelection = o.selection;
      describedOdds = o.odds;
      described = describeOrder(game, o);
    }
    return described;
  };
  /** `withdrawn`: an order still open reported as the cancel of its terms (an edit's original). */
  const cancelled = (o: OrderView, withdrawn: boolean): CancelledOrder => {
    const open = !withdrawn && o.status === 'open';
    const game = engine.game(o.gameID);
    return {
      ok: true,
      orderID: o.id,
      odds: o.odds,
      filled: o.filled,
      offered: open ? o.bet : 0,
      remaining: open ? o.remaining : o.bet - o.filled,
      gameID: o.gameID,
      userReference: o.userReference,
      // A plain field: an object literal with a getter is built through V8's slow path, which
      // cost several times the spelling it put off.
      description: describe(game, o),
    };
  };
  return {
    place: (outcome, userReference): PlaceEntry =>
      outcome.status === 'error'
        ? { status: 'rejected', userReference, errorType: outcome.errorType, error: outcome.error }
        : { status: 'accepted', userReference, matched: outcome.matched, resting: outcome.unmatched },
    cancel: (outcome, requestedId): CancelEntry => {
      if (outcome.success) return cancelled(outcome.order, false);
      return { ok: false, orderID: outcome.order?.id ?? requestedId, reason: outcome.reason };
    },
    edit: (orderID, outcome): EditEntry => {
      if (outcome.status === 'error')
        return gatewayEditOf({
          status: 'refused',
          orderID,
          httpStatus: 400,
          reason: outcome.error,
          errorType: outcome.errorType,
        });
      // The original as withdrawn: an order still open is reported as the cancel of its old terms.
      const original = outcome.edit.original;
      return {
        status: 'accepted',
        original: cancelled(original, true),
        matched: outcome.matched,
        resting: outcome.unmatched,
      };
    },
    feed: (item, game, now, messageID) => classifyMessage(envelopes.message(item, game, now, messageID), 'live'),
    graded: (game, bet, grade) => graded.row(game, bet, grade),
    forgetGame: (gameID) => {
      envelopes.forgetGame(gameID);
      graded.forgetGame(gameID);
      if (describedGame?.id === gameID) {
        describedGame = undefined;
        describedSelection = null;
      }
    },
  };
}

/** What a message carries of its game, spelt once per game version (the engine replaces a game's record when it changes). */
interface GameFields {
  readonly game: EngineGame;
  readonly eventName: string;
  readonly start: string;
}

/**
 * The user-feed envelope of a message, the same value userFeedMessage builds (the contract
 * test holds them equal), with its game's spelt fields and the clock's spelt now kept
 * between messages: most messages of a run come in bursts on one game at one instant.
 */
class Envelopes {
  readonly #games = new Map<string, GameFields>();
  #now = Number.NaN;
  #createdAt = '';

  message(item: UserFeedItem, game: EngineGame | undefined, now: number, messageID: string): UserFeedMessage {
    if (now !== this.#now) {
      this.#now = now;
      this.#createdAt = iso(now);
    }
    const f = game ? this.#fields(game) : undefined;
    return {
      matched: item.matched,
      unmatched: item.unmatched,
      origin: item.origin,
      gameID: item.gameID,
      parentGameID: game ? (game.parentGameID ?? null) : null,
      eventName: f ? f.eventName : '',
      league: game ? game.league : '',
      sport: game ? game.sport : '',
      live: game ? game.live : false,
      start: f ? f.start : null,
      awayRotationNumber: game ? (game.participants[0].rotationNumber ?? null) : null,
      platform: USER_FEED_PLATFORM,
      createdAt: this.#createdAt,
      messageID,
    };
  }

  forgetGame(gameID: string): void {
    this.#games.delete(gameID);
  }

  #fields(game: EngineGame): GameFields {
    let f = this.#games.get(game.id);
    if (f === undefined || f.game !== game) {
      f = {
        game,
        eventName: game.eventName ?? `${game.participants[0].longName} @ ${game.participants[1].longName}`,
        start: iso(game.start),
      };
      this.#games.set(game.id, f);
    }
    return f;
  }
}
