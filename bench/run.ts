import { machineLine } from './machine.ts';
import { runEngineBench } from './engine.bench.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(`linesmith benchmarks — ${machineLine()}`);
console.log(`date: ${new Date().toISOString()}`);
// Warm up the JIT on a short run, then measure.
runEngineBench(200_000, 7);
const engine = runEngineBench(2_000_000, 42);
console.log(
  `engine: ${fmt(engine.opsPerSecond)} ops/s (${fmt(engine.ops)} ops in ${engine.seconds.toFixed(2)} s; 40% post, 40% cancel, 20% crossing; ` +
    `8 books of ~1,000 resting orders, ${fmt(engine.restingAtEnd)} resting at end, ${fmt(engine.fills)} fills)`,
);
