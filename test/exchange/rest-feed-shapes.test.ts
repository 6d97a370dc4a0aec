import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENDPOINTS } from '../../src/exchange/rest/endpoints.ts';
import { UserFeedMessage } from '../../src/exchange/schemas/user-feed.ts';
import { classifyMessage } from '../../src/exchange/socket/user-feed-events.ts';
import { fillFromFeed } from '../../src/orders/fills.ts';

/**
 * Graded rows and user-feed messages in the shapes of the exchange's hand-written examples
 * (feeds-and-semantics §8), written from that section's facts: graded rows without
 * `closed`, `cancelled` and `origin`; moneyline user-feed messages without `number`.
 */

const GAME = {
  id: 'ff0000000000000000000001',
  league: 'NBA',
  sport: 'basketball',
  participants: [
    { id: 'ff0000000000000000000002', longName: 'Away', shortName: 'AW', homeAway: 'away' },
    { id: 'ff0000000000000000000003', longName: 'Home', shortName: 'HO', homeAway: 'home' },
  ],
};

/** A graded moneyline row as a hand-written example lists it: no closed, cancelled or origin. */
const bareRow = {
  game: GAME,
  id: 'ff00000000000000000000a1',
  type: 'moneyline',
  bet: 50,
  txID: 'ff00000000000000000000b1',
  ticketNumber: 'T-1',
  odds: 120,
  fee: '0.00',
  risk: '50.00',
  win: '60.00',
  outcome: 'winner',
  graded: true,
  result: '60.00',
  participantID: 'ff0000000000000000000003',
};

const page = (rows: unknown[]) => ({
  graded: rows,
  hasMore: false,
  cursor: 'c1',
  settledThrough: '2026-11-27T00:00:00.000Z',
});

describe('graded rows without closed, cancelled and origin (feeds §8)', () => {
  it('the page is read, not rejected: closed and cancelled false, origin unknown', () => {
    const parsed = ENDPOINTS.getGradedSince.schema.parse(page([bareRow]));
    expect(parsed.graded[0]).toMatchObject({
      txID: bareRow.txID,
      closed: false,
      cancelled: false,
      origin: 'unknown',
      result: 60,
      fee: 0,
    });
    const window = ENDPOINTS.getGraded.schema.parse({ graded: [bareRow], summary: { pnl: 60, volume: 50 } });
    expect(window.graded[0]).toMatchObject({ closed: false, cancelled: false, origin: 'unknown' });
  });

  it('rows that carry them keep them; a value of the wrong kind still rejects the row', () => {
    const full = { ...bareRow, closed: true, cancelled: false, origin: 'offer' };
    expect(ENDPOINTS.getGradedSince.schema.parse(page([full])).graded[0]).toMatchObject({
      closed: true,
      cancelled: false,
      origin: 'offer',
    });
    expect(() => ENDPOINTS.getGradedSince.schema.parse(page([{ ...bareRow, closed: 'no' }]))).toThrow(z.ZodError);
    expect(() => ENDPOINTS.getGradedSince.schema.parse(page([{ ...bareRow, origin: 'somewhere' }]))).toThrow(
      z.ZodError,
    );
  });
});

describe('user feed: `number` omitted on moneyline messages (feeds §8)', () => {
  const orderFields = {
    orderID: 'ff00000000000000000000a1',
    wagerRequestID: 'ff00000000000000000000c1',
    odds: 120,
    type: 'moneyline',
    side: 'ff0000000000000000000003',
    userReference: 'ls1:x:1',
  };

  it('a placement and a maker fill without `number` are read and classified', () => {
    const placed = UserFeedMessage.parse({
      messageID: '1764216000000-1',
      gameID: GAME.id,
      unmatched: { ...orderFields, filled: 0, offered: 50, remaining: 50 },
      matched: null,
    });
    expect(classifyMessage(placed, 'live').type).toBe('orderPlaced');
    const hit = UserFeedMessage.parse({
      messageID: '1764216000000-2',
      gameID: GAME.id,
      origin: 'offer',
      matched: { txID: 'ff00000000000000000000b2', ...orderFields, amount: 20, risk: 20, win: 24 },
      unmatched: { ...orderFields, filled: 20, offered: 50, remaining: 30 },
    });
    expect(classifyMessage(hit, 'live').type).toBe('makerFill');
    const fill = fillFromFeed(
      hit.matched!,
      GAME.id,
      { awayId: GAME.participants[0]!.id, homeId: GAME.participants[1]!.id },
      'offer',
      null,
      0,
    );
    expect(fill).toMatchObject({ selection: { type: 'moneyline', team: 'home' }, amount: 20, risk: 20, win: 24 });
  });
});
