import { timer, type SchedulerLike } from 'rxjs';
import { request, type Dispatcher } from 'undici';
import type { TokenSource } from '../auth/token-source.ts';
import {
  AuthenticationError,
  HttpStatusError,
  NetworkError,
  RequestTimeoutError,
  SchemaMismatchError,
} from '../errors.ts';
import { LinesmithError } from '../../shared/errors.ts';
import { UserFeedReplay } from '../schemas/user-feed.ts';

export const USER_FEED_REPLAY_PATH = '/v2/user/messages';
const ENDPOINT = `GET ${USER_FEED_REPLAY_PATH}`;

export interface ReplayRequest {
  /** Full http(s) address of `/v2/user/messages` on the streaming host. */
  readonly url: string;
  readonly tokens: TokenSource;
  readonly afterID: string;
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
  /** Aborts the request (the connection it was for went away). */
  readonly signal?: AbortSignal;
  readonly dispatcher?: Dispatcher;
}

/**
 * `GET /v2/user/messages?afterID=…` with the feed's token (raw, as on the handshake); one
 * re-login on 401. The deadline runs on the scheduler, like every other timer here.
 */
export async function fetchReplay(req: ReplayRequest): Promise<UserFeedReplay> {
  const controller = new AbortController();
  const forward = () => controller.abort(req.signal?.reason);
  req.signal?.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  const deadline = timer(req.timeoutMs, req.scheduler).subscribe(() => {
    timedOut = true;
    controller.abort();
  });
  const url = `${req.url}?afterID=${encodeURIComponent(req.afterID)}`;
  const get = (token: string) =>
    request(url, {
      method: 'GET',
      headers: { authorization: token, accept: 'application/json' },
      signal: controller.signal,
      ...(req.dispatcher ? { dispatcher: req.dispatcher } : {}),
    });
  try {
    const token = await req.tokens.token();
    let res = await get(token);
    if (res.statusCode === 401) {
      await res.body.dump();
      res = await get(await req.tokens.refresh(token));
      if (res.statusCode === 401) {
        await res.body.dump();
        throw new AuthenticationError(`${ENDPOINT}: 401 after a fresh login`);
      }
    }
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new HttpStatusError(ENDPOINT, res.statusCode, serverMessage(text));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SchemaMismatchError(ENDPOINT, [{ path: '', message: 'body is not JSON' }]);
    }
    const parsed = UserFeedReplay.safeParse(body);
    if (!parsed.success)
      throw new SchemaMismatchError(
        ENDPOINT,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    return parsed.data;
  } catch (err) {
    if (timedOut) throw new RequestTimeoutError(ENDPOINT, req.timeoutMs);
    if (err instanceof LinesmithError || req.signal?.aborted) throw err;
    throw new NetworkError(ENDPOINT, err);
  } finally {
    deadline.unsubscribe();
    req.signal?.removeEventListener('abort', forward);
  }
}

function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (
      body.error &&
      typeof body.error === 'object' &&
      typeof (body.error as { message?: unknown }).message === 'string'
    )
      return (body.error as { message: string }).message;
  } catch {
    /* not JSON: the text itself */
  }
  return text.slice(0, 200);
}
