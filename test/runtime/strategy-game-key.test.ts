import { describe, expect, it } from 'vitest';
import { StrategyIdError } from '../../src/runtime/errors.ts';
import { gameIDOf, strategyGameKey } from '../../src/runtime/strategy-game-key.ts';
import { stubVenue } from '../support/stub-venue.ts';
import { instance, scripted, testRuntime } from './support.ts';

describe('the strategy–game key', () => {
  it('names its game back, whatever the game id holds', () => {
    expect(gameIDOf(strategyGameKey('mm-1.a_b', 'g|with|bars'))).toBe('g|with|bars');
  });

  it('keys a strategy by its id, so the runtime refuses ids that would make two pairs one key', () => {
    const { venue } = stubVenue({ games: [] });
    const quiet = scripted(() => []);
    expect(() => testRuntime(venue, [instance(quiet, { id: 'mm' }), instance(quiet, { id: 'mm' })])).toThrow(
      StrategyIdError,
    );
    expect(() => testRuntime(venue, [instance(quiet, { id: 'a|b' })])).toThrow(StrategyIdError);
    expect(() => testRuntime(venue, [instance(quiet, { id: 'mm' }), instance(quiet, { id: 'mm2' })])).not.toThrow();
  });
});
