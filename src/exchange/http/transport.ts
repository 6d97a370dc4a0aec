import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { NetworkError, RequestTimeoutError } from '../errors.ts';
import { assertSecureUrl } from './urls.ts';

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  /** Path with query string already appended. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Name for errors and logs (the endpoint, not the URL: URLs may carry query secrets). */
  readonly label: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

export interface HttpTransportOptions {
  /** Keep-alive connections to the origin. */
  readonly connections?: number;
  /** The client's own deadline for headers and for the body, ms; above the server's 15 s timeout. */
  readonly timeoutMs?: number;
  readonly keepAliveTimeoutMs?: number;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One keep-alive undici Pool per origin. Answers every HTTP status as a value; only
 * failures to get an answer throw (NetworkError, RequestTimeoutError). Deadlines are
 * undici's own header and body timers.
 */
export class HttpTransport {
  readonly origin: string;
  readonly #pool: Pool;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, options: HttpTransportOptions = {}) {
    const u = assertSecureUrl(baseUrl);
    this.origin = u.origin;
    this.#timeoutMs = options.timeoutMs ?? 20_000;
    this.#pool = new Pool(u.origin, {
      connections: options.connections ?? 4,
      pipelining: 1,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      connectTimeout: Math.min(this.#timeoutMs, 10_000),
    });
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    let res: Dispatcher.ResponseData;
    try {
      res = await this.#pool.request({
        method: req.method,
        path: req.path,
        headers: req.headers ?? {},
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
    } catch (err) {
      throw this.#failure(req.label, err);
    }
    try {
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      throw this.#failure(req.label, err);
    }
  }

  #failure(label: string, err: unknown): Error {
    const code = (err as { code?: string } | null)?.code;
    if (code !== undefined && TIMEOUT_CODES.has(code)) return new RequestTimeoutError(label, this.#timeoutMs);
    if (err instanceof undiciErrors.UndiciError || err instanceof Error) return new NetworkError(label, err);
    return new NetworkError(label, err);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** First value of a header that may repeat. */
export function headerValue(headers: HttpResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
