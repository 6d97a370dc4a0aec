import pino from 'pino';
import { createContext } from '../src/sim/context.ts';
import { manualTime } from '../src/shared/time.ts';
import { startSyntheticMarket } from '../src/sim/market/market.ts';
import { parseScenario } from '../src/sim/market/scenario.ts';
const time = manualTime();
const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
const m = startSyntheticMarket(ctx, parseScenario({}));
time.advance(45 * 60_000);
for (const g of m.games().filter((g) => ['NBA', 'EPL', 'NHL'].includes(g.league)).slice(0, 4)) {
  const eg = ctx.engine.game(g.id)!;
  console.log(g.league, eg.eventName, g.phase, JSON.stringify(g.fair, (k, v) => typeof v === 'number' ? Math.round(v * 1000) / 1000 : v));
  for (const b of ctx.engine.books(g.id)) {
    const s0 = ctx.engine.bookSide(g.id, b.key, 0).slice(0, 3).map((o) => `${o.listedOdds}x${o.sumUntaken.toFixed(0)}`);
    const s1 = ctx.engine.bookSide(g.id, b.key, 1).slice(0, 3).map((o) => `${o.listedOdds}x${o.sumUntaken.toFixed(0)}`);
    if (s0.length + s1.length) console.log('   ', b.key.padEnd(20), s0.join(' ').padEnd(36), '|', s1.join(' '));
  }
}
m.stop();
