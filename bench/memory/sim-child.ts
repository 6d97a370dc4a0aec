import { manualTime } from '../../src/shared/time.ts';
import { fullGc } from './gc.ts';
import { startMarket, type MarketOptions } from './market.ts';
import type { ChildReply, ChildRequest } from './sim-process.ts';

/**
 * The simulator process of a split memory run (forked by sim-process.ts with an IPC
 * channel): the synthetic market on a manual clock that the parent moves through the
 * admin API (`POST /admin/clock`), and its memory on request.
 */
const send = (m: ChildReply) => process.send?.(m);
const options = JSON.parse(process.argv[2] ?? '{}') as MarketOptions & { startMs: number };
const market = await startMarket({ ...options, time: manualTime(options.startMs), admin: true });
const gc = fullGc();
process.on('message', (m: ChildRequest) => {
  if (m.kind === 'memory') {
    gc();
    const u = process.memoryUsage();
    send({ kind: 'memory', rss: u.rss, heapUsed: u.heapUsed });
  } else if (m.kind === 'close') {
    void market.sim.close().finally(() => process.exit(0));
  }
});
process.on('disconnect', () => void market.sim.close().finally(() => process.exit(0)));
send({ kind: 'ready', url: market.sim.url, username: market.username, password: market.password });
