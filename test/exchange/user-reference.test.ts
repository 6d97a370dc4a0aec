import { describe, expect, it } from 'vitest';
import {
  ClientIds,
  decodeReference,
  encodeReference,
  REFERENCE_PREFIX,
  StrategyReferences,
  UserReferences,
} from '../../src/exchange/orders/user-reference.ts';

describe('userReference: one scheme for every order linesmith places', () => {
  it("a strategy's order carries its strategy and client id, and decodes back to them", () => {
    const ids = new ClientIds('run1');
    const ref = encodeReference('fixed-spread', ids.next());
    expect(ref).toBe('ls1:fixed-spread:run10');
    expect(decodeReference(ref)).toEqual({ strategyId: 'fixed-spread', clientId: 'run10' });
  });

  it('the client fills in the same scheme without a strategy, which a restarted runtime does not adopt', () => {
    const refs = new UserReferences('run1');
    const [filled, kept] = refs.ensure([
      { gameID: 'g', type: 'moneyline', side: 'h', odds: 110, bet: 10, orderType: 'post' },
      { gameID: 'g', type: 'moneyline', side: 'h', odds: 110, bet: 10, orderType: 'post', userReference: 'mine' },
    ]);
    expect(filled!.userReference).toBe('ls1:run10');
    expect(filled!.userReference!.startsWith(REFERENCE_PREFIX)).toBe(true);
    expect(decodeReference(filled!.userReference)).toBeNull();
    expect(kept!.userReference).toBe('mine');
    expect(refs.next()).toBe('ls1:run11');
  });

  it('a strategy id is made plain and short, so the reference stays what the exchange echoes', () => {
    const ref = encodeReference(`a b|c${'x'.repeat(60)}`, 'r0');
    expect(ref).toBe(`ls1:a_b_c${'x'.repeat(43)}:r0`);
    expect(decodeReference(ref)?.clientId).toBe('r0');
    expect(decodeReference('ls-run-0')).toBeNull();
    expect(decodeReference(null)).toBeNull();
  });

  it("a strategy's references made from its prefix, cleaned once, are the strings encodeReference makes", () => {
    const refs = new StrategyReferences();
    const ids = ['fixed-spread', 'a b|c', `long${'y'.repeat(60)}`, 'ünï:côde', ''];
    for (const id of ids)
      for (const clientId of ['run10', 'run1z', 'r0'])
        for (let twice = 0; twice < 2; twice++) expect(refs.of(id, clientId)).toBe(encodeReference(id, clientId));
    expect(refs.of('a b|c', 'r0')).toBe('ls1:a_b_c:r0');
  });
});
