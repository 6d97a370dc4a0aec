import type { BetView, CancelOutcome, EngineGame, GradeVersion, PlaceOutcome } from '../../engine/types.ts';
import type { GradedRow } from '../../exchange/schemas/bets.ts';
import type { CancelEntry, EditEntry, PlaceEntry } from '../../exchange/orders/types.ts';
import type { UserFeedMessageEvent } from '../../exchange/socket/user-feed-events.ts';
import type { EditOutcome } from '../../sim/ops/edit.ts';
import type { UserFeedItem } from '../../sim/feeds/user-feed-messages.ts';

/**
 * How the simulated venue turns the engine replica's outcomes into what the runtime reads:
 * the order gateway's entries and the user feed's classified messages, the same domain
 * values the exchange client hands the runtime live. Two builds give the same values: the
 * typed one (answers-typed.ts) straight from the outcomes, the wire one (answers-wire.ts)
 * through the exchange's wire payloads and the client's own schemas.
 */
export interface VenueAnswers {
  /** One placed order's final outcome, with the userReference it was sent with. */
  place(outcome: PlaceOutcome, userReference: string | null): PlaceEntry;
  /** One cancel's outcome; `requestedId` is the id it was asked for (null: a cancel of all). */
  cancel(outcome: CancelOutcome, requestedId: string | null): CancelEntry;
  /** One edit's final outcome, of the order `orderID` named. */
  edit(orderID: string, outcome: EditOutcome): EditEntry;
  /** One user-feed message of ours, on `game`, sent at `now` under `messageID`. */
  feed(item: UserFeedItem, game: EngineGame | undefined, now: number, messageID: string): UserFeedMessageEvent;
  /** The graded row of one settlement version of a bet of ours, as getGradedSince reads it; `game` its game, if known. */
  graded(game: EngineGame | undefined, bet: BetView, grade: GradeVersion): GradedRow;
  /** The engine forgot the game: what was kept to answer about it goes too. */
  forgetGame(gameID: string): void;
}
