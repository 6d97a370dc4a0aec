import type { z } from 'zod';
import type { AuthMode, SimRequest, SimResponse } from './types.ts';

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a declared route's handler gets: its request, validated against the declared schemas. */
export interface RouteInput<Q, B> {
  readonly query: Q;
  readonly body: B;
}

/**
 * One exchange route in one place: its method, path and authentication, the schemas that
 * validate its query and body (a request they reject is a 400 naming the field), and the
 * schema of its 200 answer where the simulator states one. The router validates with these
 * schemas and the served OpenAPI document is generated from the same ones.
 */
export interface RouteDeclaration<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  readonly method: string | readonly string[];
  readonly path: string;
  readonly auth: AuthMode;
  /** Per-user rate limit applied after auth. */
  readonly limiter?: string;
  readonly summary: string;
  readonly deprecated?: boolean;
  /** Schema of the query parameters (an object of optional or required strings). */
  readonly query?: Q;
  /** Schema of the JSON body, validated on POST (an absent body counts as `{}`). */
  readonly body?: B;
  /** Schema of the 200 body, for the document. */
  readonly response?: z.ZodType;
  /** Runs before validation: a throttle that must count malformed requests too. */
  readonly before?: (req: SimRequest) => SimResponse | undefined;
  readonly handler: (
    req: SimRequest,
    input: RouteInput<OutputOf<Q>, OutputOf<B>>,
  ) => SimResponse | Promise<SimResponse>;
}

/** A declaration with its schemas erased, as the router and the document hold it. */
export type AnyRouteDeclaration = Omit<RouteDeclaration<z.ZodType | undefined, z.ZodType | undefined>, 'handler'>;
