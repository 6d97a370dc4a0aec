import type { z } from 'zod';
import { respond, type SimResponse } from './types.ts';

/** A validated request part, or the 400 that names what is wrong with it. */
export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: SimResponse };

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out.length === 0 ? String(p) : `.${String(p)}`;
  return out;
}

/** The first issue as one sentence that names its field. */
export function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const where = pathText(issue.path);
  const head = issue.path[0];
  if (where.length === 0 || (issue.path.length === 1 && typeof head === 'string' && issue.message.startsWith(head)))
    return issue.message;
  return `${where}: ${issue.message}`;
}

/** Validate a JSON body (absent body = `{}`, so missing fields are named). */
export function parseBody<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(raw === undefined ? {} : raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, response: respond.error(400, issueMessage(r.error)) };
}

/** Validate a query string (first value of each parameter). */
export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): Parsed<z.output<S>> {
  const plain: Record<string, string> = {};
  for (const [k, v] of query) if (!(k in plain)) plain[k] = v;
  const r = schema.safeParse(plain);
  return r.success ? { ok: true, value: r.data } : { ok: false, response: respond.error(400, issueMessage(r.error)) };
}
