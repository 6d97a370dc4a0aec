/**
 * A request's target as a URL (path and query), or null when it is not one: `http://[`, a
 * port past 65535 or a bad %-escape in an absolute target's authority make `new URL` throw,
 * and any client can send them. Both the request and the upgrade path read targets here.
 */
export function parseTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://x');
  } catch {
    return null;
  }
}

export const BAD_TARGET_MESSAGE = 'invalid request target: not a URL';
