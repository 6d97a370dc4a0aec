import type { z } from 'zod';
import type { AnyRouteDeclaration, RouteDeclaration } from './route-declaration.ts';
import type { Handler, Route, AuthMode, SimRequest, SimResponse } from './types.ts';
import { parseBody, parseQuery } from './validate.ts';

interface Compiled {
  readonly route: Route;
  readonly parts: readonly string[];
}

export interface Match {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/** Exact paths with `:param` segments; no framework, nothing clever. */
export class Router {
  readonly #exact = new Map<string, Route>();
  /** Paths of exact routes, whatever the method: a miss on method alone is a 405, not a 404. */
  readonly #exactPaths = new Set<string>();
  readonly #patterns: Compiled[] = [];

  readonly #routes: Route[] = [];

  add(methods: string | readonly string[], pattern: string, auth: AuthMode, handler: Handler, limiter?: string): this {
    return this.#mount({
      methods: typeof methods === 'string' ? [methods] : methods,
      pattern,
      auth,
      handler,
      ...(limiter ? { limiter } : {}),
    });
  }

  /**
   * Mount a declared route: its query and body are validated against the declared schemas
   * (a rejection is a 400 naming the field) before the handler sees them.
   */
  declare<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
    d: RouteDeclaration<Q, B>,
  ): this {
    const { handler, ...declaration } = d;
    const validated = (req: SimRequest): SimResponse | Promise<SimResponse> => {
      const early = d.before?.(req);
      if (early) return early;
      let query: unknown;
      if (d.query) {
        const q = parseQuery(d.query, req.query);
        if (!q.ok) return q.response;
        query = q.value;
      }
      let body: unknown;
      if (d.body && req.method !== 'GET') {
        const b = parseBody(d.body, req.body);
        if (!b.ok) return b.response;
        body = b.value;
      }
      return (
        handler as (req: SimRequest, input: { query: unknown; body: unknown }) => SimResponse | Promise<SimResponse>
      )(req, { query, body });
    };
    const methods = typeof d.method === 'string' ? [d.method] : d.method;
    return this.#mount({
      methods,
      pattern: d.path,
      auth: d.auth,
      handler: validated,
      ...(d.limiter ? { limiter: d.limiter } : {}),
      declaration: declaration as AnyRouteDeclaration,
    });
  }

  /** Every mounted route, in mounting order. */
  routes(): readonly Route[] {
    return this.#routes;
  }

  #mount(route: Route): this {
    this.#routes.push(route);
    if (route.pattern.includes(':')) this.#patterns.push({ route, parts: route.pattern.split('/') });
    else {
      for (const m of route.methods) this.#exact.set(`${m} ${route.pattern}`, route);
      this.#exactPaths.add(route.pattern);
    }
    return this;
  }

  /** `undefined` when no route has the path; `'method'` when the path exists with other methods. */
  match(method: string, path: string): Match | 'method' | undefined {
    const exact = this.#exact.get(`${method} ${path}`);
    if (exact) return { route: exact, params: {} };
    let pathKnown = this.#exactPaths.has(path);
    const parts = path.split('/');
    for (const c of this.#patterns) {
      if (c.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const p = c.parts[i]!;
        if (p.startsWith(':')) {
          // A malformed escape (`%E0%A4%A`) cannot name anything: no match (a 404), not a throw (a 500).
          const value = decodeSegment(parts[i]!);
          if (value === null) ok = false;
          else params[p.slice(1)] = value;
        } else ok = p === parts[i];
      }
      if (!ok) continue;
      if (c.route.methods.includes(method)) return { route: c.route, params };
      pathKnown = true;
    }
    return pathKnown ? 'method' : undefined;
  }
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
