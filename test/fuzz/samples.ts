/**
 * Valid wire values the fuzz tests mutate: shaped like what the simulator sends (copied from
 * backtest/data recordings and the contract), small enough to mutate fast. Each fuzz file
 * first checks that its samples are accepted, so a mutation starts from something valid.
 */

const GAME = '000000070000000000000019';
const ORDER = '000000070000000000000062';

export const bookOrder = {
  id: ORDER,
  type: 'moneyline1x2',
  sumUntaken: 3509.0000000000005,
  odds: -339,
  bet: 1100,
  gameID: GAME,
  takenRatio: 0.058997050147492625,
  expiry: '2026-01-15T12:30:00.000Z',
  createdAt: '2026-01-15T12:00:00.000Z',
  mockOrder: false,
  gameStartExpiry: true,
  participantID: '',
  market: '00000007000000000000001a',
  side: 'no',
};

export const orderUpdate = {
  epoch: 1768478401177155.25,
  gameID: GAME,
  parentGameID: null,
  sport: 'basketball',
  league: 'NBA',
  live: true,
  type: 'total',
  participantID: null,
  market: null,
  side: null,
  OU: 'over',
  total: 222.5,
  spread: null,
  mainHomeSpread: -5.5,
  mainAwaySpread: 5.5,
  mainTotal: 222.5,
  sideOrders: [
    bookOrder,
    { ...bookOrder, id: '000000070000000000002ab3', type: 'total', odds: -130, total: 222.5, OU: 'over' },
  ],
};

export const participants = [
  { id: '000000070000000000000017', longName: 'Arsenal', shortName: 'ARS', homeAway: 'away' },
  { id: '000000070000000000000018', longName: 'Tottenham Hotspur', shortName: 'TOT', homeAway: 'home', score: 1 },
];

export const game = {
  id: '000000070000000000000016',
  isSpecials: false,
  tournamentName: null,
  periodName: 'Game',
  league: 'EPL',
  sport: 'soccer',
  live: false,
  ended: false,
  parentGameID: null,
  start: '2026-01-15T12:01:57.849Z',
  participants,
  eventName: 'Tottenham Hotspur vs Arsenal',
};

export const gameUpdate = {
  ...game,
  homeMoneylines: [bookOrder],
  awayMoneylines: [],
  homeSpreads: [],
  awaySpreads: [],
  over: [],
  under: [],
  homeMoneylines1x2: [],
  awayMoneylines1x2: [],
  draw1x2: [],
  mainHomeSpread: null,
  mainAwaySpread: null,
  mainTotal: null,
  openInterest: 2903.7576320547305,
  matchedVolume: 2903.7576320547305,
  messageType: 'marketOpen',
};

export const matchedVolumeUpdate = {
  gameID: GAME,
  parentGameID: null,
  league: 'EPL',
  sport: 'soccer',
  matchedVolume: 284.8967551622419,
};

/** The exchange's own shape of a gameUpdate (feeds §8): spread and total collections keyed by the line, `{}` when empty. */
export const keyedGameUpdate = {
  ...gameUpdate,
  participants: [{ ...participants[0], rotationNumber: '1001' }, participants[1]],
  homeSpreads: {
    '-1.5': [
      {
        ...bookOrder,
        id: '000000070000000000002ab4',
        type: 'spread',
        participantID: '000000070000000000000018',
        spread: -1.5,
        market: 'main',
        side: null,
      },
    ],
  },
  awaySpreads: {},
  over: {
    '2.5': [
      {
        ...bookOrder,
        id: '000000070000000000002ab5',
        type: 'total',
        OU: 'over',
        total: 2.5,
        spread: null,
        market: 'main',
        side: 'over',
      },
    ],
  },
  under: {},
  draw1x2: {},
};

/** A total's update as the exchange's examples spell it (feeds §8): market `main`, a side name, no epoch. */
export const orderUpdateNamed = (() => {
  const { epoch: _, ...rest } = orderUpdate;
  return {
    ...rest,
    market: 'main',
    side: 'over',
    sideOrders: [
      {
        ...bookOrder,
        type: 'total',
        OU: 'over',
        total: 222.5,
        spread: null,
        market: 'main',
        side: 'over',
        participantID: null,
      },
    ],
  };
})();

export const PRICE_FRAMES: readonly unknown[] = [
  ['orderUpdate', orderUpdate],
  ['gameUpdate', gameUpdate],
  ['matchedVolumeUpdate', matchedVolumeUpdate],
  ['gameUpdate', keyedGameUpdate],
  ['orderUpdate', orderUpdateNamed],
];

const orderFields = {
  orderID: ORDER,
  wagerRequestID: '000000070000000000000063',
  odds: 120,
  type: 'moneyline',
  side: '000000070000000000000017',
  number: null,
  market: null,
  userReference: 'ls1:fs:1',
  isPostArb: false,
};

/** A maker fill: both halves. */
export const userMessage = {
  matched: { txID: '000000070000000000000099', ...orderFields, amount: 50, risk: 50, win: 60 },
  unmatched: { ...orderFields, filled: 50, offered: 100, remaining: 50 },
  origin: 'match',
  gameID: GAME,
  parentGameID: null,
  eventName: 'Tottenham Hotspur vs Arsenal',
  league: 'EPL',
  sport: 'soccer',
  live: false,
  start: '2026-01-15T12:01:57.849Z',
  awayRotationNumber: null,
  platform: 'api',
  createdAt: '2026-01-15T12:00:00.000Z',
  messageID: '1768478401177-3',
};

export const USER_MESSAGES: readonly unknown[] = [
  userMessage,
  { ...userMessage, matched: null },
  { ...userMessage, unmatched: null, origin: 'wager' },
  { messageID: '1768478401178-0', unmatched: { ...orderFields, filled: 0, offered: 0, remaining: 0 } },
];

export const placedFill = {
  amount: 10,
  odds: 120,
  number: null,
  type: 'moneyline',
  side: '000000070000000000000017',
  market: null,
  orderID: ORDER,
  txID: '000000070000000000000099',
  wagerRequestID: '000000070000000000000063',
  userReference: 'ls1:fs:1',
  risk: 10.1,
  win: 11.88,
  winWithoutCommission: 12,
};

export const restingOrder = {
  orderID: ORDER,
  wagerRequestID: '000000070000000000000063',
  offered: 90,
  odds: 120,
  type: 'moneyline',
  side: '000000070000000000000017',
  market: null,
  number: null,
  userReference: 'ls1:fs:1',
};

export const cancelResult = {
  success: true,
  reason: null,
  sessionID: ORDER,
  orderID: ORDER,
  description: 'cancelled',
  odds: 120,
  filled: 10,
  offered: 100,
  remaining: 90,
  gameID: GAME,
  userReference: 'ls1:fs:1',
  side: '000000070000000000000017',
  number: null,
};
