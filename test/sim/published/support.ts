import { afterEach } from 'vitest';
import type { EngineGame } from '../../../src/engine/types.ts';
import { startTestSim, type TestSim } from '../../support/sim.ts';
import { Clients, type FeedClient } from '../ws-client.ts';

/**
 * Shared by the tests of the shapes the exchange's published examples show where they differ
 * from the older prose (feeds-and-semantics §8): one started simulator per test, over
 * loopback, closed after it with every socket opened through `clients`.
 */
export const state: { t: TestSim | undefined } = { t: undefined };
export const clients = new Clients(() => state.t!.url);

export function closeAfterEach(): void {
  afterEach(async () => {
    await clients.closeAll();
    await state.t?.close();
    state.t = undefined;
  });
}

export async function startSim(): Promise<TestSim> {
  state.t = await startTestSim();
  return state.t;
}

export const away = (g: EngineGame) => g.participants[0].id;
export const home = (g: EngineGame) => g.participants[1].id;
export const any = () => true;

/** Place in-process (as the engine's own caller); throws unless the entry succeeded. */
export function place(sim: TestSim, userId: string, order: Record<string, unknown>) {
  const [entry] = sim.sim.context.engine.place(userId, [order]);
  if (!entry || entry.status !== 'ok') throw new Error(`place failed: ${JSON.stringify(entry)}`);
  return entry;
}

/** A socket on `path`, once the server has taken it in (a ping's pong came back). */
export async function open(path: string, token: string): Promise<FeedClient> {
  const c = await clients.open(path, token);
  await c.roundTrip();
  return c;
}

let seq = 0;
/** Orders socket: send `[type, payload]` with a fresh requestID and wait for its answer. */
export async function request(c: FeedClient, type: string, payload: Record<string, unknown> = {}): Promise<any> {
  const requestID = `ps-${++seq}`;
  c.send([type, { requestID, ...payload }]);
  return (await c.take((m) => m !== null && typeof m === 'object' && m.requestID === requestID)).value;
}

/** A simulator with a maker and a taker. */
export async function twoUsers() {
  const sim = await startSim();
  const maker = await sim.user('ps-maker');
  const taker = await sim.user('ps-taker');
  return { sim, maker, taker };
}
