import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { ConnectionStates } from '../exchange/client.ts';
import type { SocketState } from '../exchange/socket/managed-socket.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { gamesAtRisk } from './games-at-risk.ts';
import type { Venue } from '../runtime/venue.ts';
import type { Clock } from '../shared/clock.ts';
import { instrumentVenue } from './instrument-venue.ts';
import { RuntimeProbe, type FeedName } from './probe.ts';
import { bucketQuantile, type CumulativeBucket } from './quantile.ts';
import type { StatusReport } from './status-report.ts';
import { MetricsNotAttachedError } from './errors.ts';

/** Tick-to-order buckets, seconds: the in-process path takes tens of µs, a loaded one milliseconds. */
export const TICK_TO_ORDER_BUCKETS = [
  25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 1,
] as const;

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

/** What a scraped metric reads: one value, values by label, or null while there is nothing to read. */
type Reading = number | Readonly<Record<string, number>> | null;

/**
 * Metrics whose every value is read when scraped. A counter is rewritten from the running
 * total it mirrors; a gauge keeps label values it is not given unless `reset` (a set whose
 * members come and go, like halt reasons or games).
 */
function scrapedMetrics(registers: Registry[]) {
  const write = (
    label: string | null,
    r: Exclude<Reading, null>,
    put: (labels: Record<string, string> | null, v: number) => void,
  ) => {
    if (typeof r === 'number') put(null, r);
    else for (const [k, v] of Object.entries(r)) put({ [label!]: k }, v);
  };
  const base = (name: string, help: string, label: string | null) => ({
    name,
    help,
    ...(label ? { labelNames: [label] } : {}),
    registers,
  });
  return {
    gauge(
      name: string,
      help: string,
      label: string | null,
      read: () => Reading,
      options: { reset?: boolean } = {},
    ): void {
      new Gauge({
        ...base(name, help, label),
        collect() {
          const r = read();
          if (options.reset) this.reset();
          if (r === null) return;
          write(label, r, (l, v) => (l ? this.set(l, v) : this.set(v)));
        },
      });
    },
    counter(name: string, help: string, label: string | null, read: () => Reading): void {
      new Counter({
        ...base(name, help, label),
        collect() {
          const r = read();
          if (r === null) return;
          this.reset();
          write(label, r, (l, v) => (l ? this.inc(l, v) : this.inc(v)));
        },
      });
    },
  };
}

/**
 * A registry whose every `metrics()` call is one scrape, which `perScrape` readers share:
 * several gauges come from one Runtime.status(), and building it walks every game and order.
 * Outside a scrape (and in the next one) a reader reads afresh, so nothing goes stale.
 */
class ScrapeRegistry extends Registry {
  #scrape: Map<() => unknown, unknown> | null = null;

  override async metrics(): Promise<string> {
    const scrape = new Map<() => unknown, unknown>();
    this.#scrape = scrape;
    try {
      return await super.metrics();
    } finally {
      // A scrape begun meanwhile owns the slot now: only the last one clears it.
      if (this.#scrape === scrape) this.#scrape = null;
    }
  }

  perScrape<T>(read: () => T): () => T {
    return () => {
      const scrape = this.#scrape;
      if (!scrape) return read();
      if (!scrape.has(read)) scrape.set(read, read());
      return scrape.get(read) as T;
    };
  }
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
  readonly #scrapes = new ScrapeRegistry();
  readonly registry: Registry = this.#scrapes;
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
      help:
        'Time from a price event entering the runtime loop to the first place or cancel it hands to the ' +
        'gateway (wall time; only events that led to orders)',
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
    const rt = () => this.#runtime;
    const status = this.#scrapes.perScrape(() => this.#runtime?.status() ?? null);
    const scraped = scrapedMetrics(registers);
    scraped.gauge(
      'linesmith_uptime_seconds',
      'Wall seconds since the metrics were created (session start)',
      null,
      () => (this.probe.now() - this.#startedAt) / 1000,
    );
    scraped.gauge(
      'linesmith_trading_mode',
      'The process trading mode: 1 for the current one (active, reducing, halted)',
      'mode',
      () => {
        const r = rt();
        return r
          ? {
              active: r.mode === 'active' ? 1 : 0,
              reducing: r.mode === 'reducing' ? 1 : 0,
              halted: r.mode === 'halted' ? 1 : 0,
            }
          : null;
      },
    );
    scraped.gauge(
      'linesmith_halted',
      'Reasons the runtime is halted now (1 each)',
      'reason',
      () => Object.fromEntries((status()?.haltReasons ?? []).map((reason) => [reason, 1])),
      { reset: true },
    );
    scraped.gauge(
      'linesmith_games',
      'Games in the book model (known) and games some strategy is quoting (quoted)',
      'state',
      () => {
        const st = status();
        return st ? { known: st.games, quoted: st.quotedGames } : null;
      },
    );
    scraped.gauge(
      'linesmith_open_orders',
      'Our orders not in a final state (pending, resting, partly filled, pending cancel, unknown)',
      null,
      () => status()?.openOrders ?? null,
    );
    scraped.counter(
      'linesmith_fills_total',
      'Fills booked since start, settled games included, by our role (maker: our resting order was taken; taker: our order took)',
      'role',
      () => {
        const t = rt()?.own.fillTotals();
        return t ? { maker: t.maker, taker: t.taker } : null;
      },
    );
    scraped.counter(
      'linesmith_fill_volume_total',
      'Risk matched since start, settled games included, by our role',
      'role',
      () => {
        const t = rt()?.own.fillTotals();
        return t ? { maker: t.makerVolume, taker: t.takerVolume } : null;
      },
    );
    scraped.gauge(
      'linesmith_worst_case_liability',
      'Projected worst case per unsettled game with anything of ours on it (≤ 0: every live order filled where it loses)',
      'game',
      () => {
        const r = rt();
        return r ? Object.fromEntries([...r.own.gameIDs()].map((g) => [g, r.own.projectedLiability(g)])) : {};
      },
      { reset: true },
    );
    scraped.gauge(
      'linesmith_worst_case_liability_account',
      'Projected worst case summed over every unsettled game (≤ 0), as Runtime.status().worstCase',
      null,
      () => status()?.worstCase ?? null,
    );
    scraped.counter(
      'linesmith_orders_sent_total',
      'Orders handed to the gateway, by action (place, cancel)',
      'action',
      () => {
        const s = rt()?.orders.stats;
        return s ? { place: s.placesSent, cancel: s.cancelsSent } : null;
      },
    );
    scraped.counter(
      'linesmith_orders_refused_total',
      'Orders refused, by who refused (risk: our checks before sending; exchange: a rejected place)',
      'by',
      () => {
        const s = rt()?.orders.stats;
        return s ? { risk: s.riskRejected, exchange: s.exchangeRejected } : null;
      },
    );
    scraped.counter(
      'linesmith_reconcile_actions_total',
      'Reconciliation with the exchange (start-up, user-feed gaps, unknown outcomes): orders of an earlier ' +
        'run adopted, our orders closed as no longer open, foreign orders found, foreign orders cancelled',
      'action',
      () => {
        const s = rt()?.orders.stats;
        return s
          ? {
              adopted: s.adopted,
              closed: s.reconcileClosed,
              foreign: s.foreignFound,
              foreign_cancelled: s.foreignCancelled,
            }
          : null;
      },
    );
    scraped.counter(
      'linesmith_heartbeat_lapses_total',
      "Times the exchange's dead man's switch fired on us: orders cancelled without our asking once the last accepted heartbeat's deadline had passed",
      null,
      () => status()?.heartbeatLapses ?? null,
    );
    scraped.counter(
      'linesmith_heartbeat_cancelled_orders_total',
      'Orders of ours the exchange cancelled for a lapsed heartbeat',
      null,
      () => status()?.heartbeatCancels ?? null,
    );
    scraped.counter(
      'linesmith_loop_errors_total',
      'Errors the runtime loop caught and logged instead of stopping, by where (event: applying one event; ' +
        'evaluation: the strategies and order cycle after a batch)',
      'where',
      () => {
        const e = rt()?.errors;
        return e ? { event: e.events, evaluation: e.evaluations } : null;
      },
    );
    scraped.counter(
      'linesmith_strategy_errors_total',
      'Strategy quote() calls that threw or returned no list of intents, plus malformed intents dropped, by strategy id',
      'strategy',
      () => {
        const e = rt()?.errors;
        return e ? Object.fromEntries(e.strategies) : null;
      },
    );
    const perSocket = (value: (s: SocketState) => number) => () => {
      const s = this.#states;
      return s ? Object.fromEntries(this.#socketsShown().map((name) => [name, value(s[name])])) : null;
    };
    scraped.gauge(
      'linesmith_socket_up',
      'Whether each socket is open (1) or not (0)',
      'socket',
      perSocket((s) => (s.status === 'open' ? 1 : 0)),
    );
    scraped.counter(
      'linesmith_socket_reconnects_total',
      'Connections opened after the first, per socket (price, user, orders)',
      'socket',
      perSocket(reconnectsOf),
    );
    scraped.gauge(
      'linesmith_feed_lag_seconds',
      'Price feed: exchange epoch to local receipt of the latest event carrying a time-like epoch; when the ' +
        'feed carries no time, seconds since its last event (wall time)',
      'feed',
      (): Reading => {
        const f = this.probe.feed('price');
        const lag = f.epochLagSeconds ?? f.idleSeconds;
        return lag !== null ? { price: lag } : {};
      },
    );
    const FEEDS = ['price', 'user'] as const;
    scraped.gauge(
      'linesmith_feed_idle_seconds',
      'Wall seconds since the last event of each feed (price, user)',
      'feed',
      () => {
        const out: Record<string, number> = {};
        for (const feed of FEEDS) {
          const idle = this.probe.feed(feed).idleSeconds;
          if (idle !== null) out[feed] = idle;
        }
        return out;
      },
    );
    scraped.counter('linesmith_feed_events_total', 'Events received from each feed (price, user)', 'feed', () =>
      Object.fromEntries(FEEDS.map((feed) => [feed, this.probe.feed(feed).events])),
    );
    const requests = this.#o.requests;
    if (requests) {
      scraped.counter(
        'linesmith_rate_limit_waits_total',
        'REST requests that waited for the request budget (its rolling windows full, or a 429 Retry-After pause)',
        null,
        () => requests.budget.stats.delayed,
      );
      scraped.counter(
        'linesmith_rate_limit_wait_seconds_total',
        'Total wall seconds REST requests waited for the request budget',
        null,
        () => requests.budget.stats.waitedMs / 1000 / this.#speed,
      );
      scraped.counter(
        'linesmith_rate_limited_responses_total',
        'HTTP 429 answers received from the exchange',
        null,
        () => requests.stats.rateLimited,
      );
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
    return {
      status: s?.status ?? 'unknown',
      reconnects: reconnectsOf(s),
      events: f.events,
      idleSeconds: f.idleSeconds,
      epochLagSeconds: f.epochLagSeconds,
    };
  }

  /** Everything `GET /status` answers. Throws before `attach`. */
  async report(): Promise<StatusReport> {
    const r = this.#runtime;
    if (!r) throw new MetricsNotAttachedError();
    const st = r.status();
    const totals = r.own.fillTotals();
    const games = gamesAtRisk(r);
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
      orders: {
        placesSent: st.orders.placesSent,
        cancelsSent: st.orders.cancelsSent,
        riskRejected: st.orders.riskRejected,
        exchangeRejected: st.orders.exchangeRejected,
        unknown: st.orders.unknown,
      },
      heartbeat: { lapses: st.heartbeatLapses, cancelledOrders: st.heartbeatCancels },
      fills: { ...totals },
      worstCase: st.worstCase,
      topGames: games.slice(0, TOP_GAMES),
      realizedPnl: st.realizedPnl,
      feeds: {
        price: this.#feedReport('price'),
        user: this.#feedReport('user'),
        orders:
          this.#o.gateway === 'socket'
            ? { status: orders?.status ?? 'unknown', reconnects: reconnectsOf(orders) }
            : null,
      },
      rateLimit: requests
        ? {
            waits: requests.budget.stats.delayed,
            waitSeconds: requests.budget.stats.waitedMs / 1000 / this.#speed,
            responses429: requests.stats.rateLimited,
          }
        : null,
      reconcile: {
        adopted: st.orders.adopted,
        closed: st.orders.reconcileClosed,
        foreign: st.orders.foreignFound,
        foreignCancelled: st.orders.foreignCancelled,
      },
      tickToOrder: { count: tick.count, p50Seconds: tick.p50, p99Seconds: tick.p99 },
    };
  }
}
