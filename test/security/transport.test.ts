import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver } from '../../src/config/strategy-resolver.ts';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { InsecureTransportError } from '../../src/exchange/errors.ts';
import { HttpTransport } from '../../src/exchange/http/transport.ts';
import { assertSecureUrl, isLoopbackHost, urlsFromBase, validateUrls } from '../../src/exchange/http/urls.ts';
import { ExchangeRestClient } from '../../src/exchange/rest/rest-client.ts';
import { ManagedSocket } from '../../src/exchange/socket/managed-socket.ts';
import { OrdersSocketClient } from '../../src/exchange/socket/orders-socket-client.ts';
import { PriceFeedClient } from '../../src/exchange/socket/price-feed-client.ts';
import { UserFeedClient } from '../../src/exchange/socket/user-feed-client.ts';
import { FAKE_REGISTRY } from '../config/fake-registry.ts';
import { fixedTokens } from '../exchange/support-socket.ts';

/**
 * Plain http:// and ws:// carry the token in clear, so they are refused unless the host can
 * only be this machine — by every entry point that takes an address, before any connection.
 */

const credentials = async () => ({ username: 'u', password: 'Pw-transport-31d7' });
const tokens = fixedTokens('t');

/** Every way an address enters the client; each must throw InsecureTransportError at once. */
const ENTRY_POINTS: readonly (readonly [string, (url: string) => unknown])[] = [
  ['assertSecureUrl', (url) => assertSecureUrl(url)],
  ['urlsFromBase', (url) => urlsFromBase(url)],
  [
    'validateUrls (rest)',
    (url) => validateUrls({ rest: url, orders: 'wss://x.example', streaming: 'wss://x.example' }),
  ],
  [
    'validateUrls (orders)',
    (url) => validateUrls({ rest: 'https://x.example', orders: url, streaming: 'wss://x.example' }),
  ],
  [
    'validateUrls (streaming)',
    (url) => validateUrls({ rest: 'https://x.example', orders: 'wss://x.example', streaming: url }),
  ],
  ['HttpTransport', (url) => new HttpTransport(url)],
  ['ExchangeRestClient', (url) => new ExchangeRestClient({ baseUrl: url, credentials })],
  ['ExchangeClient', (url) => new ExchangeClient({ baseUrl: url, credentials })],
  ['ManagedSocket', (url) => new ManagedSocket({ url: url.replace(/^http/, 'ws'), name: 'x', tokens })],
  ['PriceFeedClient', (url) => new PriceFeedClient({ streamingUrl: url, tokens })],
  ['UserFeedClient', (url) => new UserFeedClient({ streamingUrl: url, tokens })],
  ['OrdersSocketClient', (url) => new OrdersSocketClient({ ordersUrl: url, tokens })],
];

const REFUSED = [
  'http://exchange.example.com',
  'ws://exchange.example.com',
  'HTTP://EXCHANGE.EXAMPLE.COM',
  'http://10.0.0.1:8080',
  'http://192.168.1.10',
  'http://0.0.0.0:8080',
  'http://[::]:8080',
  'http://[fd00::2]:8080',
  'http://[::ffff:10.0.0.1]',
  'http://localhost.example.com',
  'http://127.0.0.1.nip.io',
  'http://127.0.0.1@evil.example.com/',
  'http://user:secret@evil.example.com/',
  'http://evil.example.com#@127.0.0.1',
  'http://evil.example.com?@127.0.0.1',
  // Regression: `*.localhost` passed as loopback, but Node resolves it through the system
  // resolver, which sends it to DNS: the token could go anywhere in clear.
  'http://exchange.localhost:8080',
  'ws://a.b.localhost',
  'ftp://127.0.0.1',
  'file:///etc/passwd',
  'javascript:alert(1)',
];

const ALLOWED = [
  'https://exchange.example.com',
  'wss://exchange.example.com',
  'http://127.0.0.1:8080',
  'ws://127.0.0.1:8080',
  'http://127.4.5.6',
  'http://localhost:1',
  'http://LOCALHOST:1',
  'http://[::1]:8080',
  'http://2130706433/',
  'http://127.1/',
];

describe('plain transport off loopback is refused', () => {
  it.each(REFUSED)('%s is refused by every entry point', (url) => {
    for (const [name, make] of ENTRY_POINTS) {
      if (/^https?:|^wss?:/i.test(url) || name === 'assertSecureUrl')
        expect(() => make(url), name).toThrow(InsecureTransportError);
    }
  });

  it.each(ALLOWED)('%s is allowed', (url) => {
    expect(() => assertSecureUrl(url)).not.toThrow();
  });

  it('the refusal names the host, never the userinfo of the address', () => {
    const err = (() => {
      try {
        assertSecureUrl('http://bob:Pw-in-url-5521@evil.example.com:81/path?token=abc');
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(InsecureTransportError);
    expect(err!.message).toContain('evil.example.com:81');
    expect(err!.message).not.toContain('Pw-in-url-5521');
  });

  it('any http/ws address to a random domain or IPv4 outside 127/8 is refused; to 127/8 allowed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'ws', 'HTTP', 'Ws'),
        fc.oneof(fc.domain(), fc.ipV4()),
        fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
        (scheme, host, port) => {
          const url = `${scheme}://${host}${port ? `:${port}` : ''}/`;
          // An IPv4 address in 127/8; a domain whose first label is 127 (`127.aa`) is not one.
          const loopback = /^127(\.\d{1,3}){3}$/.test(new URL(url).hostname) || new URL(url).hostname === 'localhost';
          if (loopback) expect(() => assertSecureUrl(url)).not.toThrow();
          else expect(() => assertSecureUrl(url), url).toThrow(InsecureTransportError);
          expect(() =>
            assertSecureUrl(url.replace(/^[a-z]+/i, (s) => (s.toLowerCase().startsWith('h') ? 'https' : 'wss'))),
          ).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('isLoopbackHost: only localhost, 127/8 and ::1', () => {
    for (const h of ['localhost', '127.0.0.1', '127.255.255.254', '::1', '[::1]'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      'x.localhost',
      'localhost.',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '127.0.0.1.example.com',
      '1270.0.0.1',
      '',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('a config file naming plain http to a remote venue is refused with the field, before anything connects', async () => {
    const resolveStrategy = defaultStrategyResolver(FAKE_REGISTRY);
    const text = [
      'venue:',
      '  baseUrl: http://exchange.example.com',
      'strategies:',
      '  - id: s1',
      '    module: fixed-spread',
      'risk:',
      '  maxGameLiability: 100',
      '  maxTotalLiability: 1000',
      '  maxOrderSize: 10',
      '  maxOrdersPerGame: 5',
      '',
    ].join('\n');
    const err = await parseConfigText(text, '/tmp/venue.yaml', { resolveStrategy }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues).toMatchObject([
      { line: 2, path: 'venue.baseUrl', message: expect.stringMatching(/plain http to exchange\.example\.com/) },
    ]);
    const local = await parseConfigText(
      text.replace('http://exchange.example.com', 'http://a.localhost:8080'),
      '/tmp/venue.yaml',
      { resolveStrategy },
    ).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(ConfigError);
  });
});
