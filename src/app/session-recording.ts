import { createWriteStream, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Logger } from 'pino';
import { asyncScheduler } from 'rxjs';
import type { RunConfig } from '../config/types.ts';
import type { ExchangeClient } from '../exchange/client.ts';
import { FeedRecorder } from '../record/feed-recorder.ts';
import { fileStamp, type RecordedVenue } from '../record/format.ts';
import { subscriptionOf } from '../record/selection.ts';
import type { Clock } from '../shared/clock.ts';
import type { Decision } from '../runtime/runtime.ts';

export interface SessionRecording {
  /** Where the decisions go: one JSON line each, beside the feed files. */
  readonly decisionsFile: string;
  decision(d: Decision): void;
  /** The session begins to stop: its decisions from here are its shutdown's (every quote pulled), which a replay does not make then. */
  stopping(at: number): void;
  stop(reason: string): Promise<void>;
}

/**
 * `recording.enabled` in a run or paper session: the frames the runtime itself reads (the
 * same client, so the same frames in the same order), its opening snapshot, its own orders
 * (the user feed), and each change of its decisions. `linesmith backtest` over the
 * directory replays the market without the session's own orders, and the decisions show
 * whether the replay decided the same (`linesmith backtest --decisions`, test/backtest/parity.test.ts).
 */
export async function startSessionRecording(o: {
  config: RunConfig;
  exchange: ExchangeClient;
  mode: 'live' | 'paper';
  clock: Clock;
  logger: Logger;
}): Promise<SessionRecording | null> {
  const { config } = o;
  if (!config.recording.enabled || !config.recording.dir) return null;
  const dir = config.recording.dir;
  const paper = config.paper;
  const venue: RecordedVenue =
    o.mode === 'paper' && paper
      ? {
          kind: 'paper',
          paper: {
            seed: paper.seed,
            speed: paper.speed,
            scenario: paper.scenario ? relative(config.baseDir, paper.scenario) : null,
            virtualTime: false,
          },
        }
      : { kind: 'live', ...(config.venue ? { host: new URL(config.venue.urls.streaming).host } : {}) };
  const recorder = new FeedRecorder({
    source: o.exchange,
    dir,
    subscription: subscriptionOf(config.strategies.filter((s) => s.enabled).map((s) => s.interest)),
    venue,
    clock: o.clock,
    clockKind: o.mode === 'paper' ? 'exchange' : 'wall',
    scheduler: asyncScheduler,
    logger: o.logger,
  });
  await recorder.start();
  mkdirSync(dir, { recursive: true });
  const decisionsFile = join(dir, `decisions-${fileStamp(o.clock.now())}.ndjson`);
  const out = createWriteStream(decisionsFile, { flags: 'a', mode: 0o600 });
  out.on('error', (err) => o.logger.error({ err, file: decisionsFile }, 'decisions file: write failed'));
  o.logger.info({ dir, decisions: decisionsFile }, 'recording the feeds and decisions of this run');
  return {
    decisionsFile,
    decision: (d) => void out.write(`${JSON.stringify(d)}\n`),
    stopping: (at) => void out.write(`${JSON.stringify({ stopping: at })}\n`),
    stop: async (reason) => {
      await recorder.stop(reason);
      await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}
