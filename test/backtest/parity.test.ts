import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDecisions } from '../../src/backtest/parity.ts';
import { runBacktest } from '../../src/app/backtest-run.ts';
import { loadTape } from '../../src/backtest/tape.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { startRecordingSession } from '../../src/app/record-session.ts';
import { Runtime, type Decision } from '../../src/runtime/runtime.ts';
import { strategiesOf } from '../../src/app/runtime-options.ts';
import { silentLogger } from '../../src/shared/logger.ts';
import { strategies } from '../../src/app/strategy-registry.ts';
import { linesmith } from '../support/cli.ts';
import { parityConfig } from './support-parity.ts';

const CONFIG = parityConfig();

const START = Date.UTC(2026, 0, 15, 12);
const DURATION = 15 * 60_000;
// Compared by instant (the recorder keeps whole ms), not by feed position: the replay's feed
// carries its own orders' updates besides the recorded frames, so it counts more events.
const key = (d: Decision) => ({ at: Math.floor(d.at), strategyId: d.strategyId, gameID: d.gameID, intents: d.intents });

describe('paper / backtest parity', () => {
  it('a paper session recorded with its decisions, backtested with the same config, decides the same at the same points', async () => {
    const config = await parseConfigText(CONFIG, join(process.cwd(), 'parity.yaml'), {
      resolveStrategy: defaultStrategyResolver(strategies),
    });
    const dir = mkdtempSync(join(tmpdir(), 'ls-parity-'));
    const paper: Decision[] = [];
    let runtime: Runtime | null = null;
    const session = await startRecordingSession({
      config,
      mode: 'paper',
      dir,
      logger: silentLogger(),
      durationMs: DURATION,
      virtualTime: { startMs: START },
      attach: async ({ client, clock, scheduler }) => {
        const rt = new Runtime({
          exchange: client,
          gateway: 'rest',
          strategies: strategiesOf(config),
          limits: config.risk,
          usePostArb: false,
          heartbeatSeconds: config.risk.heartbeatSeconds,
          cancelUnknownOrdersAtStart: false,
          clock,
          scheduler,
          logger: silentLogger(),
          runId: 'parity01',
          onDecision: (d) => paper.push(d),
        });
        runtime = rt;
        await rt.start();
        return { stop: async () => void (await rt.stop(5_000)) };
      },
    });
    await session.done;
    const rt = runtime as Runtime | null;
    expect(rt).not.toBeNull();
    // The precondition of the comparison: nothing filled on paper.
    expect(rt!.status().fills).toBe(0);
    expect(rt!.orders.stats.placesSent).toBeGreaterThan(20);

    const tape = await loadTape([dir]);
    // The session's own orders were in the recorded book; the replay takes them out.
    expect(tape.stats.ownOrders).toBeGreaterThan(0);
    expect(tape.stats.ownListingsRemoved).toBeGreaterThan(0);
    const replayed: Decision[] = [];
    const result = await runBacktest({ config, tape, logger: silentLogger(), onDecision: (d) => replayed.push(d) });
    expect(result.report.metrics.volume.fills).toBe(0);
    // Both runs end by pulling their quotes: the paper one when the session stopped, the
    // replay after the recording's last frame. Every decision before the stop is compared.
    const before = (d: Decision) => d.at < START + DURATION;
    const p = paper.filter(before).map(key);
    const r = replayed.filter(before).map(key);
    expect(p.length).toBeGreaterThan(100);
    expect(r).toEqual(p);
    expect(compareDecisions(paper, replayed, START + DURATION)).toEqual({
      until: START + DURATION,
      toleranceMs: 1_000,
      recorded: p.length,
      replayed: p.length,
      agreeing: p.length,
      first: null,
    });

    // The same check from the command line, on the decisions file a recording session writes.
    const cfg = join(dir, 'parity.yaml');
    writeFileSync(cfg, CONFIG);
    const decisions = join(dir, 'decisions.ndjson');
    writeFileSync(decisions, paper.map((d) => `${JSON.stringify(d)}\n`).join(''));
    const cli = (file: string) =>
      linesmith(
        [
          'backtest',
          '--config',
          cfg,
          '--feed',
          dir,
          '--report',
          join(dir, 'report'),
          '--decisions',
          file,
          '--no-progress',
        ],
        { timeoutMs: 60_000 },
      );
    const same = await cli(decisions);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(
      /parity {9}the replay made the same (\d+) decision\(s\) as the recorded session, at the same instants \(up to .*, instants within 1000 ms\)/,
    );
    expect(JSON.parse(readFileSync(join(dir, 'report', 'parity.json'), 'utf8'))).toMatchObject({ first: null });
    // One recorded decision changed: the replay is said to differ there, with exit code 3.
    const lines = readFileSync(decisions, 'utf8').split('\n');
    const k = lines.findIndex((l, i) => i >= 10 && (JSON.parse(l) as Decision).intents.length > 0);
    const changed = JSON.parse(lines[k]!) as { intents: { odds: number }[] };
    changed.intents[0]!.odds += 1;
    lines[k] = JSON.stringify(changed);
    const tampered = join(dir, 'tampered.ndjson');
    writeFileSync(tampered, lines.join('\n'));
    const differs = await cli(tampered);
    expect(differs.code).toBe(3);
    expect(differs.stdout).toContain('parity         DIFFERS: ');
    // The first difference is the changed decision, as written and as the replay made it.
    const at = new Date((JSON.parse(lines[k]!) as Decision).at).toISOString();
    expect(differs.stdout).toMatch(new RegExp(`recorded ${at} .*"odds":${changed.intents[0]!.odds}`));
    expect(differs.stdout).toMatch(new RegExp(`replayed ${at} .*"odds":${changed.intents[0]!.odds - 1}`));
  }, 180_000);
});
