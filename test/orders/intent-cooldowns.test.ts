import { describe, expect, it } from 'vitest';
import { IntentCooldowns } from '../../src/orders/intent-cooldowns.ts';
import type { QuoteIntent } from '../../src/strategy/types.ts';

const intent = (key: string) =>
  ({ key, selection: { type: 'moneyline', team: 'home' }, odds: 150, size: 10 }) as QuoteIntent;
const INTENTS = [intent('home'), intent('away')];

describe('intent cooldowns: a key sits out its cooldown after a rejection', () => {
  it('blocks only the cooled key of that strategy and game, until the cooldown has run', () => {
    const c = new IntentCooldowns(2_000);
    c.cool('s', 'g', 'home', 1_000);
    expect([...c.blocked('s', 'g', INTENTS, 1_000)]).toEqual(['home']);
    expect([...c.blocked('s', 'g', INTENTS, 2_999)]).toEqual(['home']);
    // Another strategy or game with the same key is not blocked.
    expect(c.blocked('t', 'g', INTENTS, 1_500).size).toBe(0);
    expect(c.blocked('s', 'h', INTENTS, 1_500).size).toBe(0);
    // The cooldown runs until now + ms, exclusive.
    expect(c.blocked('s', 'g', INTENTS, 3_000).size).toBe(0);
  });

  it('a later rejection of the key starts its cooldown again', () => {
    const c = new IntentCooldowns(2_000);
    c.cool('s', 'g', 'away', 0);
    c.cool('s', 'g', 'away', 1_500);
    expect([...c.blocked('s', 'g', INTENTS, 3_000)]).toEqual(['away']);
    expect(c.blocked('s', 'g', INTENTS, 3_500).size).toBe(0);
  });
});
