import type { Handler, Route, AuthMode } from './types.ts';

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

  add(methods: string | readonly string[], pattern: string, auth: AuthMode, handler: Handler, limiter?: string): this {
    const route: Route = { methods: typeof methods === 'string' ? [methods] : methods, pattern, auth, handler, ...(limiter ? { limiter } : {}) };
    if (pattern.includes(':')) this.#patterns.push({ route, parts: pattern.split('/') });
    else {
      for (const m of route.methods) this.#exact.set(`${m} ${pattern}`, route);
      this.#exactPaths.add(pattern);
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
