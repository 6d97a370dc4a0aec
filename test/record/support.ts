import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncScheduler, BehaviorSubject, Subject, type Subscription } from 'rxjs';
import { ExchangeClient } from '../../src/exchange/client.ts';
import type { SocketState } from '../../src/exchange/socket/managed-socket.ts';
import type { PriceSelection } from '../../src/exchange/socket/price-subscriptions.ts';
import { FeedRecorder, type FeedRecorderOptions, type RecorderSource } from '../../src/record/feed-recorder.ts';
import type { RecordingRecord } from '../../src/record/format.ts';
import { RecordingReader, type RecordedEntry } from '../../src/record/reader.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { FAST } from '../exchange/support-socket.ts';
import type { TestSim } from '../support/sim.ts';

export const tempDir = (name: string): Promise<string> => mkdtemp(join(tmpdir(), `ls-rec-${name}-`));

/** A recorder on a fresh simulator account, and every raw frame the client's sockets delivered, captured beside it. */
export interface SimRecording {
  readonly client: ExchangeClient;
  readonly recorder: FeedRecorder;
  readonly user: { id: string; username: string; password: string };
  readonly dir: string;
  readonly received: { price: string[]; user: string[] };
  /** Stop capturing and recording in the same turn, so both saw the same frames; then close the client. */
  stop(): Promise<void>;
}

export async function recordSim(
  t: TestSim,
  username: string,
  options: Partial<FeedRecorderOptions> & { password?: string } = {},
): Promise<SimRecording> {
  const made = await t.user(username, options.password ? { password: options.password } : {});
  const client = new ExchangeClient({
    baseUrl: t.url,
    credentials: async () => ({ username, password: made.password }),
    sockets: FAST,
    rest: { runId: username },
  });
  const dir = options.dir ?? (await tempDir(username));
  const received = { price: [] as string[], user: [] as string[] };
  const capture: Subscription = client.priceFeed.socket.frames$.subscribe((f) => received.price.push(f));
  capture.add(client.userFeed.socket.frames$.subscribe((f) => received.user.push(f)));
  const recorder = new FeedRecorder({
    source: client,
    dir,
    venue: { kind: 'paper' },
    clock: systemClock,
    scheduler: asyncScheduler,
    ...options,
  });
  await client.rest.login();
  await recorder.start();
  let stopped = false;
  return {
    client,
    recorder,
    user: { id: made.id, username, password: made.password },
    dir,
    received,
    async stop() {
      if (stopped) return;
      stopped = true;
      capture.unsubscribe();
      const done = recorder.stop('test over');
      await done;
      await client.close();
    },
  };
}

export async function readAll(paths: string[]): Promise<RecordedEntry[]> {
  return new RecordingReader(paths).toArray();
}

export const records = (entries: readonly RecordedEntry[]): RecordingRecord[] => entries.map((e) => e.record);

/** The decompressed text of every file in `dir`. */
export async function decompressedText(dir: string): Promise<string> {
  const names = (await readdir(dir)).sort();
  const parts = await Promise.all(names.map(async (n) => gunzipSync(await readFile(join(dir, n))).toString('utf8')));
  return parts.join('');
}

const initial: SocketState = {
  status: 'connecting',
  attempt: 1,
  lastError: null,
  since: 0,
  connection: 0,
  retryInMs: null,
};

/** A socket the test drives: push frames, open, drop. */
export class FakeSocket {
  readonly frames = new Subject<string>();
  readonly state = new BehaviorSubject<SocketState>(initial);
  readonly frames$ = this.frames.asObservable();
  readonly state$ = this.state.asObservable();
  #connection = 0;

  open(): void {
    this.state.next({ ...initial, status: 'open', connection: ++this.#connection });
  }

  drop(message = 'connection closed (code 1006)'): void {
    this.state.next({
      ...initial,
      status: 'reconnecting',
      connection: this.#connection,
      lastError: new Error(message),
      retryInMs: 100,
    });
  }
}

/** An ExchangeClient stand-in: sockets driven by the test, an orderbook answering from a function. */
export class FakeSource implements RecorderSource {
  readonly price = new FakeSocket();
  readonly userSocket = new FakeSocket();
  readonly subscribed: { selection: PriceSelection; replace: boolean | undefined }[] = [];
  readonly orderbookCalls: ({ league: string } | { gameID: string })[] = [];
  started = 0;
  orderbook: (filter: { league: string } | { gameID: string }) => Promise<unknown[]> = async () => [];

  readonly rest = {
    getOrderbook: (filter: { league: string } | { gameID: string }): Promise<unknown[]> => {
      this.orderbookCalls.push(filter);
      return this.orderbook(filter);
    },
  };
  readonly priceFeed = {
    socket: this.price,
    subscribe: (selection: PriceSelection, options?: { readonly replace?: boolean }) =>
      void this.subscribed.push({ selection, replace: options?.replace }),
    start: () => void this.started++,
  };
  readonly userFeed = { socket: this.userSocket, start: () => void this.started++ };
}

/** A game payload as the v2 orderbook and gameUpdate carry it. */
export function wireGame(
  id: string,
  extra: Record<string, unknown> = {},
  scores?: { away: number; home: number },
): Record<string, unknown> {
  return {
    id,
    league: 'NBA',
    sport: 'basketball',
    live: false,
    ended: false,
    participants: [
      {
        id: `${id}-a`,
        longName: 'Away Team',
        shortName: 'AW',
        homeAway: 'away',
        ...(scores ? { score: scores.away } : {}),
      },
      {
        id: `${id}-h`,
        longName: 'Home Team',
        shortName: 'HO',
        homeAway: 'home',
        ...(scores ? { score: scores.home } : {}),
      },
    ],
    homeMoneylines: [],
    awayMoneylines: [],
    ...extra,
  };
}
