/**
 * Socket and side-channel addresses from a configured base. The bases may be given as
 * http(s) or ws(s); both sides need the other spelling (the streaming host serves the
 * feeds over ws and the user-feed replay over http).
 */
export function socketUrl(base: string, path: string): string {
  return join(base.replace(/^http(s?):/i, 'ws$1:'), path);
}

export function httpUrl(base: string, path: string): string {
  return join(base.replace(/^ws(s?):/i, 'http$1:'), path);
}

function join(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}
