/**
 * Deterministic 24-hex ObjectID-shaped ids. The first 8 hex digits come from the seed so
 * ids of two engines (or two runs with different seeds) do not collide; the remaining 16
 * are a counter, so ids also sort by creation.
 */
export interface IdGenerator {
  next(): string;
}

export const OBJECT_ID = /^[0-9a-f]{24}$/;

export function isObjectId(x: unknown): x is string {
  return typeof x === 'string' && OBJECT_ID.test(x);
}

export function createIdGenerator(seed = 1, start = 1): IdGenerator {
  const prefix = ((seed >>> 0) || 1).toString(16).padStart(8, '0').slice(-8);
  let counter = start;
  return {
    next: () => prefix + (counter++).toString(16).padStart(16, '0'),
  };
}
