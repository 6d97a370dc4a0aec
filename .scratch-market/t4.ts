import pino from 'pino';
import { createContext } from '../src/sim/context.ts';
import { manualTime } from '../src/shared/time.ts';
import { startSyntheticMarket } from '../src/sim/market/market.ts';
import { parseScenario } from '../src/sim/market/scenario.ts';
import { writeHeapSnapshot } from 'node:v8';
const time = manualTime();
const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
const m = startSyntheticMarket(ctx, parseScenario({}));
const H = Number(process.argv[2] ?? 48);
for (let h = 0; h < H; h++) { time.advance(3600_000); if (h % 6 === 5) { (globalThis as any).gc?.(); console.log(h, m.stats().quotes.posted, m.stats().fills, (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB', ctx.engine.games().length); } }
if (process.argv[3]) writeHeapSnapshot(process.argv[3]);
m.stop();
