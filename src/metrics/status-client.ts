import { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT } from './endpoint-defaults.ts';
import { StatusResponseError, StatusUnreachableError } from './errors.ts';
import { StatusReport } from './status-report.ts';

/** The address `run` and `paper` listen on by default (metrics.host and metrics.port). */
export const DEFAULT_STATUS_URL = `http://${DEFAULT_METRICS_HOST}:${DEFAULT_METRICS_PORT}`;

/** `http://h:p`, `http://h:p/`, `…/metrics` or `…/status` → the `/status` URL. Throws TypeError on something that is not an http(s) URL. */
export function statusUrlOf(base: string): string {
  const u = new URL(base);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TypeError(`expected an http:// or https:// URL, got ${u.protocol}`);
  u.pathname = `${u.pathname.replace(/\/+$/, '').replace(/\/(metrics|status)$/, '')}/status`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

function reasonOf(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (e?.name === 'TimeoutError') return 'no answer in time';
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens there';
  if (code === 'ENOTFOUND') return 'unknown host';
  return code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/** GET the runtime's status report. Throws StatusUnreachableError (no answer) or StatusResponseError (an answer, but not a status report). */
export async function fetchStatus(base: string, options: { readonly timeoutMs?: number } = {}): Promise<StatusReport> {
  const url = statusUrlOf(base);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      headers: { accept: 'application/json' },
    });
    text = await res.text();
  } catch (err) {
    throw new StatusUnreachableError(url, reasonOf(err), { cause: err });
  }
  if (res.status !== 200) throw new StatusResponseError(url, `HTTP ${res.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new StatusResponseError(url, 'not JSON');
  }
  const parsed = StatusReport.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new StatusResponseError(
      url,
      first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'unexpected shape',
    );
  }
  return parsed.data;
}
