import { bookKeyOf, sideIndexOf, type Selection } from '../markets/types.ts';
import { takerSelectionOfLabel, type ParticipantIds } from '../markets/wire-selection.ts';

/** A listed side's label read once: the selection a taker backs, its book and side index. */
export interface ResolvedSide {
  readonly taker: Selection;
  readonly key: string;
  readonly idx: 0 | 1;
}

/** The label fields the price feed and the orderbook put on a listed side (feeds §2). */
export interface SideLabel {
  readonly participantID?: string | null;
  readonly spread?: number | null;
  readonly total?: number | null;
  readonly OU?: string | null;
  readonly market?: string | null;
  readonly side?: string | null;
}

/** More distinct labels than a game lists lines: a feed inventing lines must not grow memory without bound. */
const MAX_LABELS = 512;

/**
 * Label → side, per game. A game lists a few dozen sides and the feed names the same ones
 * over and over, so each is read once (with its selection object shared, which also keeps
 * bookKeyOf's memo warm) instead of on every update.
 */
export class SideLabels {
  readonly #p: ParticipantIds;
  // Per type (one map each, no lookup of the type): first label field → second label field →
  // side (null: names nothing on this game).
  readonly #moneyline = new Map<unknown, Map<unknown, ResolvedSide | null>>();
  readonly #spread = new Map<unknown, Map<unknown, ResolvedSide | null>>();
  readonly #total = new Map<unknown, Map<unknown, ResolvedSide | null>>();
  readonly #moneyline1x2 = new Map<unknown, Map<unknown, ResolvedSide | null>>();
  #size = 0;

  constructor(participants: ParticipantIds) {
    this.#p = participants;
  }

  resolve(type: string, label: SideLabel): ResolvedSide | null {
    // The two fields that tell the sides of a type apart (wire-selection.ts reads the same).
    let a: unknown;
    let b: unknown;
    let byA: Map<unknown, Map<unknown, ResolvedSide | null>>;
    switch (type) {
      case 'moneyline':
        a = label.participantID;
        byA = this.#moneyline;
        break;
      case 'spread':
        a = label.participantID;
        b = label.spread;
        byA = this.#spread;
        break;
      case 'total':
        a = label.OU;
        b = label.total;
        byA = this.#total;
        break;
      case 'moneyline1x2':
        a = label.market;
        b = label.side;
        byA = this.#moneyline1x2;
        break;
      default:
        return null;
    }
    let byB = byA.get(a);
    if (!byB) byA.set(a, (byB = new Map()));
    let r = byB.get(b);
    if (r === undefined) {
      const taker = takerSelectionOfLabel(this.#p, type, label);
      r = taker ? { taker, key: bookKeyOf(taker), idx: sideIndexOf(taker) } : null;
      if (++this.#size > MAX_LABELS) {
        this.#moneyline.clear();
        this.#spread.clear();
        this.#total.clear();
        this.#moneyline1x2.clear();
        this.#size = 0;
      } else byB.set(b, r);
    }
    return r;
  }
}
