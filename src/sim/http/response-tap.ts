/**
 * The response tap: at most one observer, process-wide, sees every HTTP answer of every
 * simulator in the process (a contract check validates them against the exchange's published
 * description). Unset, it costs one comparison per response. A module of its own, importing
 * nothing, so a test harness can set it without loading the simulator.
 */

/** One HTTP answer of the simulator as the client receives it: the body is the parsed wire JSON. */
export interface ObservedResponse {
  readonly method: string;
  /** The request path without its query string. */
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

export type ResponseObserver = (response: ObservedResponse) => void;

let observer: ResponseObserver | undefined;

/** Set (or with undefined, clear) the observer of every simulator's HTTP answers; returns the one it replaces. */
export function observeResponses(next: ResponseObserver | undefined): ResponseObserver | undefined {
  const previous = observer;
  observer = next;
  return previous;
}

/** The observer set now, if any. */
export function responseObserver(): ResponseObserver | undefined {
  return observer;
}
