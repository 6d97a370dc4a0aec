import pino from 'pino';
import { createContext } from '../src/sim/context.ts';
import { manualTime } from '../src/shared/time.ts';
import { startSyntheticMarket } from '../src/sim/market/market.ts';
import { parseScenario } from '../src/sim/market/scenario.ts';
import { DEFAULT_SCENARIO } from '../src/sim/market/default-scenario.ts';
const time = manualTime();
const ctx = createContext({ time, seed: 1, log: pino({ level: 'silent' }) });
const sc = parseScenario({ ...DEFAULT_SCENARIO, leagues: DEFAULT_SCENARIO.leagues.map(l => ({ ...l, games: 50, teams: undefined })) });
let t0 = performance.now();
const m = startSyntheticMarket(ctx, sc);
console.log('start', (performance.now() - t0).toFixed(0), 'ms', m.stats().quotes);
for (let h = 0; h < 4; h++) { t0 = performance.now(); time.advance(3600_000); console.log(h, (performance.now() - t0).toFixed(0), 'ms/h', JSON.stringify(m.stats())); }
m.stop();
