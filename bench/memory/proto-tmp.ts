import v8 from 'node:v8';
import { strategies } from '../../strategies/index.ts';
import { defaultStrategyResolver, loadConfig } from '../../src/config/index.ts';
import { runVirtualPaper } from './paper-run.ts';
const config = await loadConfig('config/example.yaml', { resolveStrategy: defaultStrategyResolver(strategies) });
const t0 = performance.now();
const hours = Number(process.argv[2] ?? 0.5);
const snaps = (process.argv[3] ?? '').split(',').filter(Boolean).map(Number);
const gc = (globalThis as any).gc as (() => void) | undefined;
const M = (x: number) => (x / 2 ** 20).toFixed(0);
const r = await runVirtualPaper({ config, games: 200, durationMs: hours * 3_600_000, everyMs: 1_200_000, onTick: (t, run) => {
  gc?.();
  const m = process.memoryUsage();
  const st = run.runtime.status();
  const sp = v8.getHeapSpaceStatistics().map((s) => `${s.space_name.replace('_space', '')}:${M(s.space_used_size)}/${M(s.space_size)}`).join(' ');
  console.log(`${(t/60000).toFixed(0)} min wall ${((performance.now()-t0)/1000).toFixed(1)} s rss ${M(m.rss)} heap ${M(m.heapUsed)}/${M(m.heapTotal)} ext ${M(m.external)} games ${st.games} quoted ${st.quotedGames} open ${st.openOrders} fills ${st.fills} sent ${st.orders.placesSent}/${st.orders.cancelsSent} unk ${st.orders.unknown} | ${sp}`);
  if (snaps.includes(t / 60000)) console.log(v8.writeHeapSnapshot(`/tmp/memproto/h${t/60000}.heapsnapshot`));
}});
console.log(r.steps, r.openOrdersLeft, ((performance.now()-t0)/1000).toFixed(1));
