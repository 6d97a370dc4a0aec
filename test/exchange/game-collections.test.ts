import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTape } from '../../src/backtest/tape.ts';
import { MarketModel } from '../../src/market-model/market-model.ts';
import { BOOK_COLLECTIONS } from '../../src/exchange/schemas/book-order.ts';
import { OrderbookGame, OrderbookV1Game } from '../../src/exchange/schemas/exchange.ts';
import type { PriceFeedEvent } from '../../src/exchange/schemas/price-feed.ts';
import { ENDPOINTS } from '../../src/exchange/rest/endpoints.ts';
import {
  createPriceFrameChecker,
  createPriceFrameParser,
  type PriceFrameOutcome,
} from '../../src/exchange/socket/price-parse.ts';
import { AWAY, HOME, keyedGameUpdate, keyedOfferIds, listed } from './support-game-shapes.ts';

const MODES = ['fast', 'compiled', 'zod'] as const;
const G = 'bb0000000000000000000001';

type GameUpdateEvent = Extract<PriceFeedEvent, { type: 'gameUpdate' }>;

function gameUpdateOf(out: PriceFrameOutcome): GameUpdateEvent {
  if (!out.ok) throw new Error(`not an event: ${out.problem === 'malformed' ? out.reason : out.messageType}`);
  if (out.event.type !== 'gameUpdate') throw new Error(`not a gameUpdate: ${out.event.type}`);
  return out.event;
}

const idsOf = (list: readonly { id: string }[]): string[] => list.map((o) => o.id);

describe('a game collection in either form: a list or an object keyed by the line (feeds §8)', () => {
  for (const mode of MODES) {
    it(`price feed (${mode}): a gameUpdate with line-keyed spreads and totals is an event, its collections flat lists`, () => {
      const ids = keyedOfferIds(G);
      const ev = gameUpdateOf(createPriceFrameParser(mode)(JSON.stringify(['gameUpdate', keyedGameUpdate({ id: G })])));
      expect(ev.messageType).toBe('marketOpen');
      expect(ev.payload.id).toBe(G);
      expect(idsOf(ev.payload.homeMoneylines)).toEqual([ids.homeMoneylines]);
      expect(idsOf(ev.payload.homeSpreads)).toEqual([ids.homeSpreads]);
      expect(idsOf(ev.payload.awaySpreads)).toEqual([ids.awaySpreads]);
      expect(idsOf(ev.payload.over)).toEqual([ids.over]);
      expect(idsOf(ev.payload.under)).toEqual([ids.under]);
      // `{}` and a missing collection are both empty lists.
      for (const c of ['awayMoneylines', 'homeMoneylines1x2', 'awayMoneylines1x2', 'draw1x2'] as const)
        expect(ev.payload[c]).toEqual([]);
      // A string rotation number and a participant without a score are fine.
      expect(ev.payload.participants.map((p) => p.rotationNumber)).toEqual(['501', '502']);
    });

    it(`price feed (${mode}): every collection may be keyed (moneylines and 1x2 too) or a list; several lines under one collection all come through`, () => {
      const base = keyedGameUpdate({ id: G, messageType: 'marketClosed' });
      const yes = listed(
        G,
        { type: 'moneyline1x2', participantID: '', market: HOME, side: 'no' },
        { id: 'bb00000000000000000000a1', odds: 250, bet: 30 },
      );
      const draw = listed(
        G,
        { type: 'moneyline1x2', participantID: '', market: 'draw', side: 'yes' },
        { id: 'bb00000000000000000000a2', odds: -200, bet: 40 },
      );
      const secondLine = listed(
        G,
        { type: 'spread', participantID: HOME, spread: -4.5, market: 'main' },
        { id: 'bb00000000000000000000a3', odds: 130, bet: 20 },
      );
      const frame = {
        ...base,
        homeMoneylines: { main: base.homeMoneylines },
        homeSpreads: { ...(base.homeSpreads as object), '-4.5': [secondLine] },
        over: (base.over as Record<string, unknown[]>)['221.5'],
        homeMoneylines1x2: { [HOME]: [yes] },
        draw1x2: { draw: [draw] },
        awayMoneylines1x2: [],
      };
      const ev = gameUpdateOf(createPriceFrameParser(mode)(JSON.stringify(['gameUpdate', frame])));
      expect(ev.messageType).toBe('marketClosed');
      const ids = keyedOfferIds(G);
      expect(idsOf(ev.payload.homeMoneylines)).toEqual([ids.homeMoneylines]);
      expect(idsOf(ev.payload.homeSpreads).sort()).toEqual([ids.homeSpreads, 'bb00000000000000000000a3'].sort());
      expect(idsOf(ev.payload.over)).toEqual([ids.over]);
      expect(idsOf(ev.payload.homeMoneylines1x2)).toEqual(['bb00000000000000000000a1']);
      expect(idsOf(ev.payload.draw1x2)).toEqual(['bb00000000000000000000a2']);
      for (const c of BOOK_COLLECTIONS) expect(Array.isArray(ev.payload[c]), c).toBe(true);
    });

    it(`price feed (${mode}): a keyed collection whose value is not a list of book orders is still malformed`, () => {
      for (const bad of [{ '-3.5': 5 }, { '-3.5': [{ id: 'x', odds: 'plus' }] }, 'nope']) {
        const out = createPriceFrameParser(mode)(
          JSON.stringify(['gameUpdate', { ...keyedGameUpdate({ id: G }), homeSpreads: bad }]),
        );
        expect(out.ok).toBe(false);
        expect(!out.ok && out.problem === 'malformed' && out.reason).toMatch(/^gameUpdate: homeSpreads/);
      }
    });
  }

  it('the parsed frame itself is left as it came (what a frame log or a recording holds)', () => {
    const text = JSON.stringify(['gameUpdate', keyedGameUpdate({ id: G })]);
    const frame: unknown = JSON.parse(text);
    for (const mode of MODES) {
      const out = createPriceFrameChecker(mode)(frame);
      expect(Array.isArray(gameUpdateOf(out).payload.homeSpreads)).toBe(true);
    }
    expect(JSON.stringify(frame)).toBe(text);
  });

  it('REST v2 orderbook (the endpoint schema as the client runs it): keyed collections are read and flattened', () => {
    const { messageType: _, ...game } = keyedGameUpdate({ id: G });
    const parsed = ENDPOINTS.getOrderbook.schema.parse({ games: [game] });
    const ids = keyedOfferIds(G);
    const g = parsed.games[0]!;
    expect(idsOf(g.homeSpreads)).toEqual([ids.homeSpreads]);
    expect(idsOf(g.under)).toEqual([ids.under]);
    expect(g.draw1x2).toEqual([]);
    // The flat form is unchanged.
    const flat = OrderbookGame.parse({ ...game, homeSpreads: g.homeSpreads, over: [], under: null });
    expect(idsOf(flat.homeSpreads)).toEqual([ids.homeSpreads]);
    expect(flat.over).toEqual([]);
    expect(flat.under).toEqual([]);
  });

  it('REST v1 orderbook: lists where it keys and keys where it lists are read, into the same flat form', () => {
    const { messageType: _, ...game } = keyedGameUpdate({ id: G });
    const ids = keyedOfferIds(G);
    const v1 = {
      ...game,
      homeMoneylines: { main: game.homeMoneylines },
      homeSpreads: (game.homeSpreads as Record<string, unknown>)['-3.5'],
    };
    const parsed = ENDPOINTS.getOrderbookV1.schema.parse({ market: null, games: [v1] });
    expect(idsOf(parsed.games[0]!.homeMoneylines)).toEqual([ids.homeMoneylines]);
    expect(idsOf(parsed.games[0]!.homeSpreads)).toEqual([ids.homeSpreads]);
    expect(idsOf(OrderbookV1Game.parse(game).awaySpreads)).toEqual([ids.awaySpreads]);
  });

  it('the book model lists a keyed game on both sides of each line', () => {
    const { messageType: _, ...game } = keyedGameUpdate({ id: G });
    const model = new MarketModel(() => false);
    model.applySnapshot(OrderbookGame.parse(game), 0);
    const ids = keyedOfferIds(G);
    expect(model.side(G, 'spread:-3.5', 0)?.offers.map((o) => o.id)).toEqual([ids.homeSpreads]);
    expect(model.side(G, 'spread:-3.5', 1)?.offers.map((o) => o.id)).toEqual([ids.awaySpreads]);
    expect(model.side(G, 'total:221.5', 0)?.offers.map((o) => o.id)).toEqual([ids.over]);
    expect(model.side(G, 'total:221.5', 1)?.offers.map((o) => o.id)).toEqual([ids.under]);
    expect(model.stats.unreadableSides).toBe(0);
    expect(model.participants(G)).toMatchObject({ awayId: AWAY, homeId: HOME });
  });

  it('a recording: a keyed gameUpdate frame and a keyed snapshot game are replayed, not reported', async () => {
    const sample = 'backtest/data/paper-seed11-drops/feed-20260115T185357190Z-000002.jsonl.gz';
    const meta = gunzipSync(readFileSync(sample)).toString('utf8').split('\n')[0]!;
    const t0 = (JSON.parse(meta) as { t: number }).t;
    const { messageType: _, ...game } = keyedGameUpdate({ id: G });
    const lines = [
      meta,
      JSON.stringify({
        t: t0 + 1,
        k: 'snapshot',
        d: { batch: 1, reason: 'start', req: t0, scope: { league: 'NBA' }, game },
      }),
      JSON.stringify({
        t: t0 + 2,
        k: 'snapshotDone',
        d: { batch: 1, reason: 'start', req: t0, games: [G], failed: [] },
      }),
      JSON.stringify({
        t: t0 + 3,
        k: 'price',
        c: 1,
        d: ['gameUpdate', keyedGameUpdate({ id: G, messageType: 'marketClosed' })],
      }),
    ];
    const dir = mkdtempSync(join(tmpdir(), 'ls-keyed-'));
    const file = join(dir, 'feed-keyed.jsonl.gz');
    writeFileSync(file, gzipSync(lines.join('\n') + '\n'));
    const problems: string[] = [];
    const tape = await loadTape([file], { onProblem: (p) => problems.push(`${p.problem}: ${p.detail}`) });
    expect(problems).toEqual([]);
    expect(tape.stats.malformedFrames).toBe(0);
    const ids = keyedOfferIds(G);
    const snap = tape.items.find((i) => i.kind === 'snapshot');
    expect(snap?.kind === 'snapshot' && idsOf(snap.game.over)).toEqual([ids.over]);
    const price = tape.items.find((i) => i.kind === 'price');
    expect(
      price?.kind === 'price' && price.event.type === 'gameUpdate' && idsOf(price.event.payload.awaySpreads),
    ).toEqual([ids.awaySpreads]);
    expect(price?.kind === 'price' && price.event.type === 'gameUpdate' && price.event.messageType).toBe(
      'marketClosed',
    );
  });
});
