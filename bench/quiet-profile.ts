import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInStrategyResolver } from '../src/app/strategy-registry.ts';
import { runBacktest } from '../src/app/backtest-run.ts';
import { openTape } from '../src/backtest/tape/cache.ts';
import { loadConfig } from '../src/config/index.ts';
import { silentLogger } from '../src/shared/logger.ts';

/**
 * The per-event cost of the replay, in one process: builds the tape of paper-seed7 once, then
 * N times reads it alone (open, checksums, every chunk decoded) and replays it with a config
 * (default the quiet one), printing events per CPU second of each (CPU time: the machine is
 * shared, and wall time counts the neighbours too). For a profile of the same loop:
 *
 *   node --single-threaded-gc --import tsx --cpu-prof bench/quiet-profile.ts [config] [N]
 *
 * `bench/backtest-floor.yaml` is the floor: no strategy is interested in any game, so every
 * event passes through the recorded market, the bot's feed and the runtime's model with no
 * evaluation at all.
 *
 * Not part of `npm run bench`: a tool for finding where the time goes.
 */
const root = resolve(fileURLToPath(import.meta.url), '../..');
const recording = resolve(root, 'backtest/data/paper-seed7');
const configPath = resolve(root, process.argv[2] ?? 'bench/backtest-quiet.yaml');
const n = Number(process.argv[3] ?? 8);
/** CPU seconds of this process since `c0` (the machine is shared: wall time measures the neighbours too). */
const cpuSeconds = (c0: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1e6;
};
const dir = mkdtempSync(join(tmpdir(), 'ls-quiet-'));
try {
  const config = await loadConfig(configPath, { resolveStrategy: builtInStrategyResolver() });
  await openTape([recording], { dir, rebuild: true });
  const logger = silentLogger();
  const reads: number[] = [];
  const replays: number[] = [];
  for (let r = 0; r < n; r++) {
    let c0 = process.cpuUsage();
    const { tape } = await openTape([recording], { dir });
    let events = 0;
    for await (const c of tape.chunks()) events += c.length;
    reads.push(events / cpuSeconds(c0));
    const reused = await openTape([recording], { dir });
    c0 = process.cpuUsage();
    const res = await runBacktest({ config, tape: reused.tape, logger });
    replays.push(res.events / cpuSeconds(c0));
  }
  const f = (xs: number[]) => xs.map((x) => Math.round(x / 1000) + 'k').join(' ');
  console.log(`tape read ev/cpu-s: ${f(reads)}  best ${Math.round(Math.max(...reads))}`);
  console.log(`replay ev/cpu-s: ${f(replays)}  best ${Math.round(Math.max(...replays))}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
