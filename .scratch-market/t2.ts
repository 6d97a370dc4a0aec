import pino from 'pino';
import { createContext } from '/work/main/src/sim/context.ts';
import { manualTime } from '/work/main/src/shared/time.ts';
import { startSyntheticMarket } from '/work/main/src/sim/market/market.ts';
import { parseScenario } from '/work/main/src/sim/market/scenario.ts';
import { DEFAULT_SCENARIO } from '/work/main/src/sim/market/default-scenario.ts';
const time = manualTime();
const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
const sc = parseScenario(process.argv[2] === 'small' ? { name: 't', horizonMinutes: 30, pace: { preGameMinutes: 30 }, leagues: [{ league: 'NBA', sport: 'basketball', games: 2, durationMinutes: 30 }, { league: 'EPL', sport: 'soccer', games: 2, durationMinutes: 30 }] } : DEFAULT_SCENARIO);
const t0 = performance.now();
const m = startSyntheticMarket(ctx, sc);
console.log(m.games().slice(0, 6).map(g => JSON.stringify({ l: g.league, s: g.start - time.clock.now(), f: g.fair })).join('\n'));
const hours = Number(process.argv[3] ?? 6);
for (let h = 0; h < hours * 12; h++) {
  time.advance(5 * 60_000);
  if (h % 12 === 11) console.log(h, JSON.stringify(m.stats()), (performance.now() - t0).toFixed(0), 'ms');
}
for (const id of m.accounts.makers.concat(m.accounts.noiseTakers, m.accounts.informedTakers)) {
  const g = ctx.engine.grades(id); const pnl = g.reduce((s, x) => s + x.result, 0);
  console.log(id.slice(-4), g.length, pnl.toFixed(0), ctx.engine.account(id)?.balance.toFixed(0));
}
m.stop();
