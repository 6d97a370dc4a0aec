import pino from 'pino';
import { createContext } from '../src/sim/context.ts';
import { manualTime } from '../src/shared/time.ts';
import { startSyntheticMarket } from '../src/sim/market/market.ts';
import { parseScenario } from '../src/sim/market/scenario.ts';
const variants: Record<string, unknown> = {
  base: {},
  noTakers: { pace: { noiseTakersPerMinute: 0, informedTakersPerMinute: 0 } },
  noTakersNoLive: { pace: { noiseTakersPerMinute: 0, informedTakersPerMinute: 0 }, horizonMinutes: 2000 },
  tol2: { population: { makers: { tolerance: 0.02 } } },
};
for (const [name, v] of Object.entries(variants)) {
  const time = manualTime();
  const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
  const m = startSyntheticMarket(ctx, parseScenario(v));
  time.advance(4 * 3600_000);
  const s = m.stats();
  console.log(name, JSON.stringify(s.quotes), s.games, s.fills);
  m.stop();
}
{
  const time = manualTime();
  const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
  const m = startSyntheticMarket(ctx, parseScenario({}));
  for (let h = 0; h < 30; h++) { time.advance(3600_000); if (h % 6 === 5) { (globalThis as any).gc?.(); console.log(h, m.stats().quotes.posted, (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB'); } }
  m.stop();
}
