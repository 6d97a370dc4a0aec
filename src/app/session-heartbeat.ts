/** The exchange takes a heartbeat timeout of whole seconds in this range. */
const MIN_TIMEOUT_SECONDS = 6;
const MAX_TIMEOUT_SECONDS = 86_400;

/** Heartbeats sent per timeout: two may be lost or late before the switch fires. */
const SENDS_PER_TIMEOUT = 3;

/** How a session keeps the exchange's dead man's switch armed, on the runtime's clock. */
export interface SessionHeartbeat {
  /** The timeout each heartbeat asks for, exchange seconds. */
  readonly timeoutSeconds: number;
  /** How often a heartbeat is sent, runtime (exchange) ms. */
  readonly everyMs: number;
}

/**
 * The heartbeat of a session whose exchange clock runs `speed` times faster than wall time.
 * The configured timeout is what the process may stall (a loaded machine, a long GC, a slow
 * network) before the exchange cancels everything, so it is a span of wall time: on a
 * sped-up paper exchange it is scaled by the speed, as the feeds' staleness is. Taken as
 * exchange time, 20 s at 60x would be a third of a wall second, and a busy machine loses
 * every quote to the switch. Heartbeats go out a third of the timeout apart. At speed 1 (a
 * live run) this is the configuration as written.
 */
export function sessionHeartbeat(configuredSeconds: number, speed = 1): SessionHeartbeat {
  const timeoutSeconds = Math.min(
    MAX_TIMEOUT_SECONDS,
    Math.max(MIN_TIMEOUT_SECONDS, Math.round(configuredSeconds * Math.max(1, speed))),
  );
  return { timeoutSeconds, everyMs: Math.floor((timeoutSeconds * 1000) / SENDS_PER_TIMEOUT) };
}
