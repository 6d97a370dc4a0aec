import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { ConnectionStates } from '../exchange/client.ts';
import type { SocketState } from '../exchange/socket/managed-socket.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { Venue } from '../runtime/venue.ts';
import type { Clock } from '../shared/clock.ts';
import { instrumentVenue } from './instrument-venue.ts';
import { RuntimeProbe, type FeedName } from './probe.ts';
import { bucketQuantile, type CumulativeBucket } from './quantile.ts';
import type { StatusReport } from './status-report.ts';

/** Tick-to-order buckets, seconds: the in-process path takes tens of µs, a loaded one milliseconds. */
export const TICK_TO_ORDER_BUCKETS = [25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 1] as const;

/** How many games the status report lists by worst case. */
const TOP_GAMES = 5;

/** What the metrics read of the REST client (ExchangeRestClient is one): 429s and request-budget waits. */
export interface RequestStatsSource {
  readonly stats: { readonly rateLimited: number };
  readonly budget: { readonly stats: { readonly delayed: number; readonly waitedMs: number } };
}

export interface RuntimeMetricsOptions {
  readonly session: 'live' | 'paper';
  /** The venue's clock (the runtime's): epochs and the request budget's waits are on it. */
  readonly clock: Clock;
  /** How much faster than wall time that clock runs (paper speed; default 1). Durations are reported in wall time. */
  readonly speed?: number;
  /** The runtime's gateway: the orders socket is reported only when it is used. */
  readonly gateway?: 'rest' | 'socket';
  readonly requests?: RequestStatsSource;
  /** Monotonic wall ms (default `performance.now`); tests inject their own. */
  readonly monotonic?: () => number;
}

const SOCKETS = ['price', 'user', 'orders'] as const;
type SocketName = (typeof SOCKETS)[number];

function reconnectsOf(s: SocketState | undefined): number {
  return s ? Math.max(0, s.connection - 1) : 0;
}

/**
 * The runtime's metrics on a registry of its own (never prom-client's global one): every
 * value is read from the runtime's state when scraped — Runtime.status(), its own book, the
 * order manager's counters, the connection states, the REST client's counters — except
 * what only an event can tell (feed timing, tick-to-order), which the probe measures on an
 * instrumented venue. Use: `instrument(venue)` before the Runtime is built, `attach(runtime)`
 * after.
 */
export class RuntimeMetrics {
  readonly registry = new Registry();
  readonly probe: RuntimeProbe;
  readonly #o: RuntimeMetricsOptions;
  readonly #speed: number;
  readonly #startedAt: number;
  readonly #tickToOrder: Histogram;
  #runtime: Runtime | null = null;
  #states: ConnectionStates | null = null;
  #statesSub: Subscription | null = null;

  constructor(options: RuntimeMetricsOptions) {
    this.#o = options;
    this.#speed = options.speed ?? 1;
    const r = [this.registry];
    this.#tickToOrder = new Histogram({
      name: 'linesmith_tick_to_order_seconds',
      help: 'Time from a price event entering the runtime loop to the first place or cancel it hands to the gateway (wall time; only events that led to orders)',
      buckets: [...TICK_TO_ORDER_BUCKETS],
      registers: r,
    });
    this.probe = new RuntimeProbe({
      clock: options.clock,
      speed: this.#speed,
      ...(options.monotonic ? { monotonic: options.monotonic } : {}),
      onTickToOrder: (s) => this.#tickToOrder.observe(s),
    });
    this.#startedAt = this.probe.now();
    this.#define(r);
  }

  /** The venue the Runtime should be given: the same one, with measurement points. Also follows its connection states. */
  instrument(venue: Venue): Venue {
    this.#statesSub?.unsubscribe();
    this.#statesSub = venue.states$.subscribe((s) => (this.#states = s));
    return instrumentVenue(venue, this.probe);
  }

  /** The runtime whose state the metrics read. */
  attach(runtime: Runtime): void {
    this.#runtime = runtime;
  }

  /** Stop following the connection states. */
  close(): void {
    this.#statesSub?.unsubscribe();
    this.#statesSub = null;
  }

  #socketsShown(): readonly SocketName[] {
    return this.#o.gateway === 'socket' ? SOCKETS : ['price', 'user'];
  }

  #define(registers: Registry[]): void {
    const self = this;
    const rt = () => this.#runtime;
    new Gauge({
      name: 'linesmith_uptime_seconds',
      help: 'Wall seconds since the metrics were created (session start)',
      registers,
      collect() {
        this.set((self.probe.now() - self.#startedAt) / 1000);
      },
    });
    new Gauge({
      name: 'linesmith_trading_mode',
      help: 'The process trading mode: 1 for the current one (active, reducing, halted)',
      labelNames: ['mode'],
      registers,
      collect() {
        const r = rt();
        if (!r) return;
        for (const m of ['active', 'reducing', 'halted'] as const) this.set({ mode: m }, r.mode === m ? 1 : 0);
      },
    });
    new Gauge({
      name: 'linesmith_halted',
      help: 'Reasons the runtime is halted now (1 each)',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const reason of rt()?.status().haltReasons ?? []) this.set({ reason }, 1);
      },
    });
    new Gauge({
      name: 'linesmith_games',
      help: 'Games in the book model (known) and games some strategy is quoting (quoted)',
      labelNames: ['state'],
      registers,
      collect() {
        const r = rt();
        if (!r) return;
        const st = r.status();
        this.set({ state: 'known' }, st.games);
        this.set({ state: 'quoted' }, st.quotedGames);
      },
    });
    new Gauge({
      name: 'linesmith_open_orders',
      help: 'Our orders not in a final state (pending, resting, partly filled, pending cancel, unknown)',
      registers,
      collect() {
        const r = rt();
        if (r) this.set(r.status().openOrders);
      },
    });
    new Counter({
      name: 'linesmith_fills_total',
      help: 'Fills booked since start, settled games included, by our role (maker: our resting order was taken; taker: our order took)',
      labelNames: ['role'],
      registers,
      collect() {
        const r = rt();
        if (!r) return;
        const t = r.own.fillTotals();
        this.reset();
        this.inc({ role: 'maker' }, t.maker);
        this.inc({ role: 'taker' }, t.taker);
      },
    });
    new Counter({
      name: 'linesmith_fill_volume_total',
      help: 'Risk matched since start, settled games included, by our role',
      labelNames: ['role'],
      registers,
      collect() {
        const r = rt();
        if (!r) return;
        const t = r.own.fillTotals();
        this.reset();
        this.inc({ role: 'maker' }, t.makerVolume);
        this.inc({ role: 'taker' }, t.takerVolume);
      },
    });
    new Gauge({
      name: 'linesmith_worst_case_liability',
      help: 'Projected worst case per unsettled game with anything of ours on it (≤ 0: every live order filled where it loses)',
      labelNames: ['game'],
      registers,
      collect() {
        this.reset();
        const r = rt();
        if (!r) return;
        for (const g of r.own.gameIds()) this.set({ game: g }, r.own.projectedLiability(g));
      },
    });
    new Gauge({
      name: 'linesmith_worst_case_liability_account',
      help: 'Projected worst case summed over every unsettled game (≤ 0), as Runtime.status().worstCase',
      registers,
      collect() {
        const r = rt();
        if (r) this.set(r.status().worstCase);
      },
    });
    new Counter({
      name: 'linesmith_orders_sent_total',
      help: 'Orders handed to the gateway, by action (place, cancel)',
      labelNames: ['action'],
      registers,
      collect() {
        const s = rt()?.orders.stats;
        if (!s) return;
        this.reset();
        this.inc({ action: 'place' }, s.placesSent);
        this.inc({ action: 'cancel' }, s.cancelsSent);
      },
    });
    new Counter({
      name: 'linesmith_orders_refused_total',
      help: 'Orders refused, by who refused (risk: our checks before sending; exchange: a rejected place)',
      labelNames: ['by'],
      registers,
      collect() {
        const s = rt()?.orders.stats;
        if (!s) return;
        this.reset();
        this.inc({ by: 'risk' }, s.riskRejected);
        this.inc({ by: 'exchange' }, s.exchangeRejected);
      },
    });
    new Counter({
      name: 'linesmith_reconcile_actions_total',
      help: 'Reconciliation with the exchange (start-up, user-feed gaps, unknown outcomes): orders of an earlier run adopted, our orders closed as no longer open, foreign orders found, foreign orders cancelled',
      labelNames: ['action'],
      registers,
      collect() {
        const s = rt()?.orders.stats;
        if (!s) return;
        this.reset();
        this.inc({ action: 'adopted' }, s.adopted);
        this.inc({ action: 'closed' }, s.reconcileClosed);
        this.inc({ action: 'foreign' }, s.foreignFound);
        this.inc({ action: 'foreign_cancelled' }, s.foreignCancelled);
      },
    });
    new Gauge({
      name: 'linesmith_socket_up',
      help: 'Whether each socket is open (1) or not (0)',
      labelNames: ['socket'],
      registers,
      collect() {
        const s = self.#states;
        if (!s) return;
        for (const name of self.#socketsShown()) this.set({ socket: name }, s[name].status === 'open' ? 1 : 0);
      },
    });
    new Counter({
      name: 'linesmith_socket_reconnects_total',
      help: 'Connections opened after the first, per socket (price, user, orders)',
      labelNames: ['socket'],
      registers,
      collect() {
        const s = self.#states;
        if (!s) return;
        this.reset();
        for (const name of self.#socketsShown()) this.inc({ socket: name }, reconnectsOf(s[name]));
      },
    });
    new Gauge({
      name: 'linesmith_feed_lag_seconds',
      help: "Price feed: exchange epoch to local receipt of the latest event carrying a time-like epoch; when the feed carries no time, seconds since its last event (wall time)",
      labelNames: ['feed'],
      registers,
      collect() {
        const f = self.probe.feed('price');
        const lag = f.epochLagSeconds ?? f.idleSeconds;
        if (lag !== null) this.set({ feed: 'price' }, lag);
      },
    });
    new Gauge({
      name: 'linesmith_feed_idle_seconds',
      help: 'Wall seconds since the last event of each feed (price, user)',
      labelNames: ['feed'],
      registers,
      collect() {
        for (const feed of ['price', 'user'] as const) {
          const idle = self.probe.feed(feed).idleSeconds;
          if (idle !== null) this.set({ feed }, idle);
        }
      },
    });
    new Counter({
      name: 'linesmith_feed_events_total',
      help: 'Events received from each feed (price, user)',
      labelNames: ['feed'],
      registers,
      collect() {
        this.reset();
        for (const feed of ['price', 'user'] as const) this.inc({ feed }, self.probe.feed(feed).events);
      },
    });
    const requests = this.#o.requests;
    if (requests) {
      new Counter({
        name: 'linesmith_rate_limit_waits_total',
        help: 'REST requests that waited for the request budget (its rolling windows full, or a 429 Retry-After pause)',
        registers,
        collect() {
          this.reset();
          this.inc(requests.budget.stats.delayed);
        },
      });
      new Counter({
        name: 'linesmith_rate_limit_wait_seconds_total',
        help: 'Total wall seconds REST requests waited for the request budget',
        registers,
        collect() {
          this.reset();
          this.inc(requests.budget.stats.waitedMs / 1000 / self.#speed);
        },
      });
      new Counter({
        name: 'linesmith_rate_limited_responses_total',
        help: 'HTTP 429 answers received from the exchange',
        registers,
        collect() {
          this.reset();
          this.inc(requests.stats.rateLimited);
        },
      });
    }
  }

  async #tickQuantiles(): Promise<{ count: number; p50: number | null; p99: number | null }> {
    const values = (await this.#tickToOrder.get()).values;
    const buckets: CumulativeBucket[] = values
      .filter((v) => v.metricName === 'linesmith_tick_to_order_seconds_bucket')
      .map((v) => ({ le: v.labels.le === '+Inf' ? Infinity : Number(v.labels.le), count: v.value }));
    const count = values.find((v) => v.metricName === 'linesmith_tick_to_order_seconds_count')?.value ?? 0;
    return { count, p50: bucketQuantile(0.5, buckets), p99: bucketQuantile(0.99, buckets) };
  }

  #feedReport(name: FeedName) {
    const f = this.probe.feed(name);
    const s = this.#states?.[name];
    return { status: s?.status ?? 'unknown', reconnects: reconnectsOf(s), events: f.events, idleSeconds: f.idleSeconds, epochLagSeconds: f.epochLagSeconds };
  }

  /** Everything `GET /status` answers. Throws before `attach`. */
  async report(): Promise<StatusReport> {
    const r = this.#runtime;
    if (!r) throw new Error('RuntimeMetrics.report() before attach(runtime)');
    const st = r.status();
    const totals = r.own.fillTotals();
    const games: { gameID: string; name: string; worstCase: number }[] = [];
    for (const g of r.own.gameIds()) {
      const worstCase = r.own.projectedLiability(g);
      if (worstCase >= 0) continue;
      const game = r.market.game(g);
      games.push({ gameID: g, name: game ? `${game.league} ${game.participants.awayName} @ ${game.participants.homeName}` : g, worstCase });
    }
    games.sort((a, b) => a.worstCase - b.worstCase);
    const tick = await this.#tickQuantiles();
    const requests = this.#o.requests;
    const orders = this.#states?.orders;
    return {
      format: 'linesmith-status/1',
      session: this.#o.session,
      uptimeSeconds: (this.probe.now() - this.#startedAt) / 1000,
      mode: st.mode,
      haltReasons: [...st.haltReasons],
      games: st.games,
      quotedGames: st.quotedGames,
      openOrders: st.openOrders,
      orders: { placesSent: st.orders.placesSent, cancelsSent: st.orders.cancelsSent, riskRejected: st.orders.riskRejected, exchangeRejected: st.orders.exchangeRejected, unknown: st.orders.unknown },
      fills: { ...totals },
      worstCase: st.worstCase,
      topGames: games.slice(0, TOP_GAMES),
      realizedPnl: st.realizedPnl,
      feeds: {
        price: this.#feedReport('price'),
        user: this.#feedReport('user'),
        orders: this.#o.gateway === 'socket' ? { status: orders?.status ?? 'unknown', reconnects: reconnectsOf(orders) } : null,
      },
      rateLimit: requests ? { waits: requests.budget.stats.delayed, waitSeconds: requests.budget.stats.waitedMs / 1000 / this.#speed, responses429: requests.stats.rateLimited } : null,
      reconcile: { adopted: st.orders.adopted, closed: st.orders.reconcileClosed, foreign: st.orders.foreignFound, foreignCancelled: st.orders.foreignCancelled },
      tickToOrder: { count: tick.count, p50Seconds: tick.p50, p99Seconds: tick.p99 },
    };
  }
}
