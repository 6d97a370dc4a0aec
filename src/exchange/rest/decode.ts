import type { z } from 'zod';
import { SchemaMismatchError } from '../errors.ts';
import type { Endpoint } from './endpoint.ts';

function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out.length === 0 ? String(p) : `.${String(p)}`;
  return out;
}

/** The error message of an HTTP error body: `{error: "…"}` or `{error: {message, code}}`. */
export function serverMessageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    const e = body?.error;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string')
      return (e as { message: string }).message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200) || '(empty body)';
}

/** The `errorType` of an HTTP error body `{error, errorType}`, if it has one. */
export function errorTypeOf(text: string): string | null {
  try {
    const e = (JSON.parse(text) as { errorType?: unknown })?.errorType;
    return typeof e === 'string' ? e : null;
  } catch {
    return null;
  }
}

/**
 * A 2xx body as the endpoint's typed value: JSON, unwrapped from `{data}` where the
 * contract wraps, validated. Any mismatch is a SchemaMismatchError naming the endpoint and
 * the field; the body itself is not quoted (it may hold the token, e.g. login).
 */
export function decodeBody<S extends z.ZodType>(ep: Endpoint<S>, text: string): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SchemaMismatchError(ep.name, [{ path: '', message: 'body is not JSON' }]);
  }
  let payload: unknown = body;
  if (ep.envelope === 'data') {
    if (body === null || typeof body !== 'object' || !('data' in body))
      throw new SchemaMismatchError(ep.name, [{ path: 'data', message: 'missing the data wrapper' }]);
    payload = (body as { data: unknown }).data;
  }
  const parsed = ep.schema.safeParse(payload);
  if (!parsed.success) {
    throw new SchemaMismatchError(
      ep.name,
      parsed.error.issues.map((i) => ({
        path: (ep.envelope === 'data' ? 'data' + (i.path.length ? '.' : '') : '') + pathOf(i.path),
        message: i.message,
      })),
    );
  }
  return parsed.data;
}
