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

  it('tells strategies and games apart whatever characters their names hold', () => {
    const c = new IntentCooldowns(2_000);
    c.cool('a|b', 'c', 'home', 0);
    expect([...c.blocked('a|b', 'c', INTENTS, 1_000)]).toEqual(['home']);
    expect(c.blocked('a', 'b|c', INTENTS, 1_000).size).toBe(0);
  });

  it('past 10,000 cooled keys forgets the ones whose cooldown has run, and keeps the others', () => {
    const c = new IntentCooldowns(2_000);
    for (let g = 0; g < 10_000; g++) c.cool('s', `g${g}`, 'home', 0);
    c.cool('s', 'late', 'away', 1_000);
    // The 10,001st key at 2,500: every key of time 0 has run out and goes; the late one stays.
    c.cool('s', 'later', 'away', 2_500);
    expect([...c.blocked('s', 'late', INTENTS, 2_999)]).toEqual(['away']);
    expect([...c.blocked('s', 'later', INTENTS, 2_999)]).toEqual(['away']);
    expect(c.blocked('s', 'g0', INTENTS, 1_999).size).toBe(0);
    expect(c.size).toBe(2);
  });
});
