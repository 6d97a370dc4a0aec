import { formatMoney } from '../money/rounding.ts';
import type { StatusReport } from './status-report.ts';

/** 75 → "1m 15s"; 3 725 → "1h 02m". */
export function formatUptime(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(s / 3600);
  return h < 48
    ? `${h}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : `${Math.floor(h / 24)}d ${String(h % 24).padStart(2, '0')}h`;
}

/** A duration at a glance: µs under a millisecond, ms under a second, else seconds; "—" when unknown. */
export function formatSeconds(s: number | null): string {
  if (s === null) return '—';
  if (s === 0) return '0 s';
  if (s < 1e-3) return `${Math.round(s * 1e6)} µs`;
  if (s < 1) return `${(s * 1e3).toFixed(s < 0.01 ? 2 : 1)} ms`;
  return `${s.toFixed(s < 10 ? 2 : 0)} s`;
}

const line = (label: string, value: string) => `  ${label.padEnd(15)} ${value}`;

function feedLine(name: string, f: StatusReport['feeds']['price']): string {
  const parts = [f.status];
  if (f.epochLagSeconds !== null) parts.push(`lag ${formatSeconds(f.epochLagSeconds)}`);
  parts.push(f.idleSeconds === null ? 'no event yet' : `last event ${formatSeconds(f.idleSeconds)} ago`);
  parts.push(`${f.reconnects} reconnect${f.reconnects === 1 ? '' : 's'}`);
  return `${name} ${parts.join(', ')}`;
}

/**
 * The status report as a panel to read at a glance: mode and why it is halted, what is
 * quoted, orders and fills, the worst case and the games it comes from, the feeds, rate
 * limits, reconciliation and tick-to-order. Plain text, no colours: it goes to logs and
 * pipes as well as terminals.
 */
export function renderStatusPanel(r: StatusReport): string {
  const mode = r.mode === 'active' ? 'ACTIVE' : r.mode === 'reducing' ? 'REDUCE-ONLY' : 'HALTED';
  const out = [`linesmith ${r.session} · up ${formatUptime(r.uptimeSeconds)} · ${mode}`];
  if (r.haltReasons.length > 0) out.push(line('halted by', r.haltReasons.join('; ')));
  out.push(line('games', `${r.quotedGames} quoted of ${r.games}`));
  const o = r.orders;
  if (r.heartbeat && r.heartbeat.lapses > 0)
    out.push(
      line(
        'HEARTBEAT',
        `lapsed ${r.heartbeat.lapses}×: the exchange cancelled ${r.heartbeat.cancelledOrders} of our orders`,
      ),
    );
  out.push(
    line(
      'orders',
      `${r.openOrders} open · ${o.placesSent} placed, ${o.cancelsSent} cancels sent · refused: ` +
        `${o.riskRejected} by risk, ${o.exchangeRejected} by the exchange${o.unknown > 0 ? ` · ${o.unknown} unknown outcomes` : ''}`,
    ),
  );
  const f = r.fills;
  out.push(
    line(
      'fills',
      `${f.maker + f.taker} (maker ${f.maker}, taker ${f.taker}) · volume maker ${formatMoney(f.makerVolume)}, taker ${formatMoney(f.takerVolume)}`,
    ),
  );
  out.push(
    line('worst case', `${formatMoney(r.worstCase)} over all games · settled P&L ${formatMoney(r.realizedPnl)}`),
  );
  for (const g of r.topGames) out.push(line('', `${formatMoney(g.worstCase).padStart(10)}  ${g.name}`));
  out.push(line('feeds', feedLine('price', r.feeds.price)));
  out.push(line('', feedLine('user', r.feeds.user)));
  if (r.feeds.orders)
    out.push(
      line(
        '',
        `orders socket ${r.feeds.orders.status}, ${r.feeds.orders.reconnects} reconnect${r.feeds.orders.reconnects === 1 ? '' : 's'}`,
      ),
    );
  out.push(
    line(
      'rate limits',
      r.rateLimit
        ? `${r.rateLimit.waits} waits, ${formatSeconds(r.rateLimit.waitSeconds)} waited · ${r.rateLimit.responses429} × 429`
        : 'not measured',
    ),
  );
  const c = r.reconcile;
  out.push(
    line(
      'reconciliation',
      `adopted ${c.adopted} · closed ${c.closed} · foreign ${c.foreign} (cancelled ${c.foreignCancelled})`,
    ),
  );
  const t = r.tickToOrder;
  out.push(
    line(
      'tick-to-order',
      t.count === 0
        ? 'no orders from price events yet'
        : `p50 ${formatSeconds(t.p50Seconds)} · p99 ${formatSeconds(t.p99Seconds)} (${t.count} samples)`,
    ),
  );
  return out.join('\n');
}
