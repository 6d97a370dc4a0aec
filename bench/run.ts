import { machineLine } from './machine.ts';
import { runEngineBench } from './engine.bench.ts';
import { runSimFeedBench } from './sim-feed.bench.ts';
import { runSimRestBench } from './sim-rest.bench.ts';
import { runPriceParseBench } from './price-parse.bench.ts';
import { runClientRestBench } from './client-rest.bench.ts';
import { runTickToOrderBench } from './tick-to-order.bench.ts';

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

const rest = await runSimRestBench();
const ms = (n: number) => `${n.toFixed(3)} ms`;
const met = (value: number, goal: number) => (value >= goal ? 'met' : 'not met');
const where = (f: (typeof rest.figures)[number]) =>
  f.placement === 'thread' ? "with the client in the server's thread" : `with the client in a worker thread${f.connections > 1 ? `, ${f.connections} connections` : ''}`;
console.log(
  `sim REST place+cancel (1 client, undici Pool, pipelining 1, per-IP limit lifted; goal ≥ ${fmt(rest.goalRoundTripsPerSecond)} round trips/s on one core): ` +
    rest.figures
      .map(
        (f) =>
          `${fmt(f.roundTripsPerSecond)}/s ${where(f)} (${f.placement === 'thread' ? `goal ${met(f.roundTripsPerSecond, rest.goalRoundTripsPerSecond)}; ` : ''}` +
          `${fmt(f.roundTrips)} in ${f.seconds.toFixed(2)} s, per call p50 ${ms(f.p50Ms)} p99 ${ms(f.p99Ms)}, ${f.errors} errors)`,
      )
      .join('; '),
);

const feed = await runSimFeedBench();
console.log(
  `sim price feed: ${fmt(feed.deliveredPerSecond)} messages/s delivered to ${feed.subscribers} subscribers (goal ≥ ${fmt(feed.goalPerSecond)}/s: ${met(feed.deliveredPerSecond, feed.goalPerSecond)}; ` +
    `${fmt(feed.perSubscriberMin)}–${fmt(feed.perSubscriberMax)}/s per subscriber, average frame ${fmt(feed.averageFrameBytes)} bytes, ` +
    `${fmt(feed.operations)} post/cancel ops in ${feed.seconds.toFixed(2)} s, ${fmt(feed.missing)} missing, ${fmt(feed.otherFrames)} other frames; clients in a worker thread)`,
);

const parse = await runPriceParseBench();
console.log(
  `client price-feed parsing (one core, ${fmt(parse.frames)} recorded frames, average ${fmt(parse.averageFrameBytes)} bytes; goal ≥ ${fmt(parse.goalPerSecond)}/s): ` +
    parse.figures.map((f) => `${f.mode} ${fmt(f.messagesPerSecond)}/s (${f.nsPerMessage.toFixed(0)} ns)`).join(', ') +
    ` — the client uses the fast path: goal ${met(parse.fastPerSecond, parse.goalPerSecond)}`,
);

const clientRest = await runClientRestBench();
console.log(
  `client REST round trips against linesmith sim (keep-alive, validated, client and server on one core; limits lifted): ` +
    clientRest.map((f) => `${f.call} ×${f.inFlight} in flight ${fmt(f.roundTripsPerSecond)}/s (p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)})`).join('; '),
);

await runTickToOrderBench({ frames: 3_000 }); // warm-up
const t2o = await runTickToOrderBench();
console.log(
  `runtime tick-to-order latency (price frame in → place/cancel handed to the gateway, ${t2o.games} games, fixed-spread, no throttle; goal p99 ≤ 200 µs): ` +
    `p50 ${t2o.p50Us.toFixed(1)} µs, p99 ${t2o.p99Us.toFixed(1)} µs, max ${t2o.maxUs.toFixed(0)} µs over ${fmt(t2o.measured)} frames that moved a quote (of ${fmt(t2o.frames)}): goal ${met(200, t2o.p99Us)}`,
);
