import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signed `auth` cookie login sets: `s:<token>.<base64url HMAC>`, as cookie-signature libraries spell it. */
export function signCookieValue(value: string, secret: Buffer): string {
  return `s:${value}.${createHmac('sha256', secret).update(value).digest('base64url')}`;
}

export function unsignCookieValue(signed: string, secret: Buffer): string | null {
  if (!signed.startsWith('s:')) return null;
  const body = signed.slice(2);
  const dot = body.lastIndexOf('.');
  if (dot < 0) return null;
  const value = body.slice(0, dot);
  const expected = Buffer.from(createHmac('sha256', secret).update(value).digest('base64url'));
  const given = Buffer.from(body.slice(dot + 1));
  return expected.length === given.length && timingSafeEqual(expected, given) ? value : null;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}
