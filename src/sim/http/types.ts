import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from 'ws';
import type { SimUser } from '../accounts.ts';
import type { AnyRouteDeclaration } from './route-declaration.ts';

/**
 * How a route authenticates: the ordinary header (Bearer optional), the raw token (graded
 * endpoints), the streaming host's ways (`feed`: the ordinary ones, an `Auth` header or a
 * `token` query parameter), none, or admin (loopback only).
 */
export type AuthMode = 'bearer' | 'raw' | 'feed' | 'none' | 'admin';

export interface SimRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body (undefined when none was sent). */
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  /** Set on authenticated routes. */
  readonly user: SimUser | null;
  readonly token: string | null;
}

export interface SimResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler = (req: SimRequest) => SimResponse | Promise<SimResponse>;

export interface Route {
  readonly methods: readonly string[];
  readonly pattern: string;
  readonly auth: AuthMode;
  readonly handler: Handler;
  /** Optional per-user rate limit applied after auth. */
  readonly limiter?: string;
  /** The declaration the route was made from (schemas, summary); absent on routes added without one. */
  readonly declaration?: AnyRouteDeclaration;
}

export interface SocketContext {
  readonly user: SimUser;
  readonly token: string;
  readonly ip: string;
  readonly path: string;
}

export type SocketHandler = (ws: WebSocket, ctx: SocketContext) => void;

/** Helpers to build responses in the contract's shapes. */
export const respond = {
  data: (data: unknown, headers?: Record<string, string>): SimResponse => ({
    status: 200,
    body: { data },
    ...(headers ? { headers } : {}),
  }),
  top: (body: unknown): SimResponse => ({ status: 200, body }),
  error: (status: number, message: string, headers?: Record<string, string>): SimResponse => ({
    status,
    body: { error: message },
    ...(headers ? { headers } : {}),
  }),
};
