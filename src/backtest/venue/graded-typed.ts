import type { BetView, EngineGame, GradeVersion } from '../../engine/types.ts';
import type { GradedRow } from '../../exchange/schemas/bets.ts';
import { Game } from '../../exchange/schemas/game.ts';
import { formatMoney } from '../../money/rounding.ts';
import { renderGame } from '../../sim/render/game.ts';
import { iso } from '../../sim/render/time.ts';

/** A REST money field as the client reads it: the exchange's 2-decimal spelling, as a number. */
const money = (n: number): number => Number(formatMoney(n));

/**
 * Graded rows built straight from the engine's bets and grades: the value the client's
 * schema reads from the row the simulator renders (renderGradedRow), field for field and in
 * the schema's key order, which the wire-versus-typed contract test holds them to. The game
 * is the only nested value: it is rendered and read through the client's schema once per
 * version of the engine's game record (the engine replaces it when the game changes), not
 * once per row.
 */
export class TypedGradedRows {
  readonly #games = new Map<string, { readonly game: EngineGame; readonly read: GradedRow['game'] }>();

  forgetGame(gameID: string): void {
    this.#games.delete(gameID);
  }

  row(game: EngineGame | undefined, bet: BetView, grade: GradeVersion): GradedRow {
    const offer = bet.origin === 'offer';
    const out: GradedRow = {
      game: game ? this.#game(game) : { _id: bet.gameID, error: 'game not found' },
      id: bet.orderID,
      type: bet.wire.type,
      bet: bet.money.amount,
      txID: bet.txID,
      closed: false,
      ticketNumber: bet.id,
      odds: bet.money.odds,
      fee: money(grade.fee),
      risk: money(bet.money.risk),
      win: money(bet.money.win),
      origin: bet.origin,
      cancelled: false,
      outcome: grade.outcome,
      graded: true,
      createdAt: iso(bet.createdAt),
      matchedTime: iso(bet.matchedAt),
      settledAt: iso(grade.settledAt),
      adminRefund: grade.adminRefund,
      wagerRequestID: bet.wagerRequestID,
      userReference: bet.userReference,
    };
    if (bet.isPostArb) out.isPostArb = true;
    out.platform = 'api';
    out.result = money(grade.result);
    // The market fields in the schema's order; an offer-side row names spread and total, null where they do not apply.
    const s = bet.selection;
    switch (s.type) {
      case 'moneyline':
        out.participantID = bet.wire.side;
        if (offer) {
          out.spread = null;
          out.total = null;
        }
        break;
      case 'spread':
        out.participantID = bet.wire.side;
        out.spread = s.line;
        if (offer) out.total = null;
        break;
      case 'total':
        out.participantID = null;
        if (offer) out.spread = null;
        out.total = s.line;
        out.OU = s.ou;
        break;
      case 'moneyline1x2':
        out.participantID = null;
        if (offer) {
          out.spread = null;
          out.total = null;
        }
        out.side = s.yes ? 'yes' : 'no';
        out.market = bet.wire.market ?? '';
        break;
    }
    return out;
  }

  #game(game: EngineGame): GradedRow['game'] {
    let g = this.#games.get(game.id);
    if (g === undefined || g.game !== game) {
      g = { game, read: Game.parse(renderGame(game, { withFuturesSide: true })) };
      this.#games.set(game.id, g);
    }
    return g.read;
  }
}
