import { decodeReference, REFERENCE_PREFIX } from '../../exchange/orders/user-reference.ts';

const COLON = 58;

/**
 * The strategy a userReference names ('' for none), as decodeReference reads it. A run's
 * orders come from a few strategies, mostly one after another from the same: the last one
 * read is checked first, in place, with no object or strings made for a reference that names it.
 */
export class StrategyOf {
  #last = '';

  read(ref: string | null | undefined): string {
    const s = this.#last;
    if (ref && s !== '') {
      // `ls1:<s>:<client>`: the colon after <s> is the last one, and a client id follows it.
      const at = REFERENCE_PREFIX.length + s.length;
      if (
        ref.length > at + 1 &&
        ref.charCodeAt(at) === COLON &&
        ref.startsWith(REFERENCE_PREFIX) &&
        ref.startsWith(s, REFERENCE_PREFIX.length) &&
        ref.indexOf(':', at + 1) === -1
      )
        return s;
    }
    const decoded = decodeReference(ref);
    if (decoded === null) return '';
    this.#last = decoded.strategyId;
    return decoded.strategyId;
  }
}
