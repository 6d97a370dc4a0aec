import { InsecureTransportError } from '../errors.ts';

/**
 * Where the exchange lives. The contract names three bases (REST, orders socket, streaming
 * sockets); the simulator serves all of them on one origin.
 */
export interface ExchangeUrls {
  /** REST base, e.g. `https://api.example.com` or `http://127.0.0.1:8080`. */
  readonly rest: string;
  /** Orders socket base (`/orders/ws` is appended). */
  readonly orders: string;
  /** Streaming base (`/v2/user`, `/price-stream`, `/v2/user/messages`). */
  readonly streaming: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * A host that can only be this machine: `localhost`, 127.0.0.0/8 or ::1 (as a URL spells
 * them). Not `*.localhost`: RFC 6761 asks resolvers to keep it local, but Node asks the
 * system resolver, which (with `hosts: files dns`) sends it to DNS, whose answer can be anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Plain transport leaks the token to anyone on the path, so it is allowed only where the
 * path is this machine. Throws InsecureTransportError otherwise.
 */
export function assertSecureUrl(url: string): URL {
  const u = new URL(url);
  if ((u.protocol === 'http:' || u.protocol === 'ws:') && !isLoopbackHost(u.hostname))
    throw new InsecureTransportError(url);
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) throw new InsecureTransportError(url);
  return u;
}

/** One base URL for all three services (a simulator, or a gateway that serves all paths). */
export function urlsFromBase(base: string): ExchangeUrls {
  const u = assertSecureUrl(base);
  const rest = `${u.protocol === 'ws:' ? 'http:' : u.protocol === 'wss:' ? 'https:' : u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  const ws = rest.replace(/^http/, 'ws');
  return { rest, orders: ws, streaming: ws };
}

/** Check every base; the socket bases may be given as http(s) and are turned into ws(s). */
export function validateUrls(urls: ExchangeUrls): ExchangeUrls {
  const toWs = (s: string) => {
    const u = assertSecureUrl(s);
    const proto = u.protocol === 'http:' ? 'ws:' : u.protocol === 'https:' ? 'wss:' : u.protocol;
    return `${proto}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  };
  const rest = assertSecureUrl(urls.rest);
  return {
    rest: `${rest.protocol}//${rest.host}${rest.pathname.replace(/\/$/, '')}`,
    orders: toWs(urls.orders),
    streaming: toWs(urls.streaming),
  };
}
