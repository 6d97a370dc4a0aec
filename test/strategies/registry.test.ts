import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strategies, strategyByName } from '../../src/app/strategy-registry.ts';
import { book, offer, view } from './support.ts';

describe('strategy registry', () => {
  it('maps each name to its module', () => {
    expect([...strategies.keys()]).toEqual(['fixed-spread', 'inventory-skew', 'post-arb']);
    for (const [name, m] of strategies) {
      expect(m.name).toBe(name);
      expect(strategyByName(name)).toBe(m);
      expect(m.description.length).toBeGreaterThan(20);
    }
    expect(strategyByName('nope')).toBeUndefined();
  });

  it('documents every parameter and has a default for each', () => {
    for (const m of strategies.values()) {
      const schema = m.params as unknown as z.ZodObject;
      expect(schema).toBeInstanceOf(z.ZodObject);
      const fields = Object.entries(schema.shape);
      expect(fields.length).toBeGreaterThan(3);
      for (const [field, s] of fields) {
        expect(s.description, `${m.name}.${field}`).toMatch(/\S{3}/);
        expect(s.safeParse(undefined).success, `${m.name}.${field} has a default`).toBe(true);
      }
      expect(m.params.safeParse({}).success).toBe(true);
      expect(m.params.safeParse({ maxLiability: -5 }).success).toBe(false);
      expect(m.params.safeParse({ markets: ['corners'] }).success).toBe(false);
    }
  });

  it('quotes nothing on an empty game, with default params', () => {
    for (const m of strategies.values()) expect(m.quote(view(), m.params.parse({}))).toEqual([]);
  });

  it('quotes nothing on an ended game', () => {
    const books = [book('moneyline', [offer(105, 80)], [offer(-125, 300)])];
    const fair = { moneyline: 0.55 };
    for (const m of strategies.values()) {
      const p = m.params.parse({});
      expect(m.quote(view({ books, fair }), p).length, m.name).toBeGreaterThan(0);
      expect(m.quote(view({ books, fair, game: { ended: true } }), p), m.name).toEqual([]);
    }
  });
});
