import { z } from 'zod';
import { urlsFromBase, validateUrls, isLoopbackHost, type ExchangeUrls } from '../../exchange/http/urls.ts';
import { pathField, type SchemaContext } from '../fields.ts';

/**
 * Where the live exchange is and where the login comes from. The login itself never
 * appears here: it comes from LINESMITH_USERNAME/LINESMITH_PASSWORD or a credentials file
 * (src/exchange/auth/credentials.ts), so a config file can be shared or committed safely.
 */
export interface VenueConfig {
  readonly urls: ExchangeUrls;
  /** `file` absent: the environment. */
  readonly credentials: { readonly file?: string };
  /** Where the session keeps its token across restarts (mode 600); memory only when absent. */
  readonly tokenFile?: string;
  /** Where a live run keeps the user feed's replay cursor, so a restart replays what it missed. */
  readonly cursorFile?: string;
}

/** Checked here rather than left to urls.ts so the error carries the field's line, not a stack trace. */
function urlField(protocols: readonly string[]) {
  return z.string({ error: 'expected a URL' }).superRefine((s, ctx) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: `not a URL: ${JSON.stringify(s)}` });
      return;
    }
    if (!protocols.includes(u.protocol)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected ${protocols.map((p) => p.replace(':', '')).join(', ')}, got ${u.protocol.replace(':', '')}`,
      });
    } else if ((u.protocol === 'http:' || u.protocol === 'ws:') && !isLoopbackHost(u.hostname)) {
      ctx.addIssue({
        code: 'custom',
        message:
          `plain ${u.protocol.replace(':', '')} to ${u.host} would expose the session token: use https/wss ` +
          `(plain transport is allowed on loopback only)`,
      });
    }
  });
}

const ANY = ['http:', 'https:', 'ws:', 'wss:'];

export function venueSection(ctx: SchemaContext) {
  return z
    .strictObject({
      baseUrl: urlField(ANY).optional(),
      urls: z
        .strictObject({ rest: urlField(['http:', 'https:']), orders: urlField(ANY), streaming: urlField(ANY) })
        .optional(),
      credentials: z.strictObject({ file: pathField(ctx) }).optional(),
      tokenFile: pathField(ctx).optional(),
      cursorFile: pathField(ctx).optional(),
    })
    .superRefine((v, c) => {
      if (v.baseUrl !== undefined && v.urls !== undefined)
        c.addIssue({ code: 'custom', path: ['urls'], message: 'give either baseUrl or urls, not both' });
      if (v.baseUrl === undefined && v.urls === undefined)
        c.addIssue({
          code: 'custom',
          message: 'name the exchange: baseUrl (one base for REST and the sockets) or urls {rest, orders, streaming}',
        });
    })
    .transform((v): VenueConfig => ({
      urls: v.urls ? validateUrls(v.urls) : urlsFromBase(v.baseUrl!),
      credentials: v.credentials ? { file: v.credentials.file } : {},
      ...(v.tokenFile !== undefined ? { tokenFile: v.tokenFile } : {}),
      ...(v.cursorFile !== undefined ? { cursorFile: v.cursorFile } : {}),
    }));
}
