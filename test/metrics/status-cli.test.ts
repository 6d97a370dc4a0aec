import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { linesmith } from '../support/cli.ts';
import { StatusResponseError, StatusUnreachableError } from '../../src/metrics/errors.ts';
import { fetchStatus, statusUrlOf } from '../../src/metrics/status-client.ts';

async function listen(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A loopback port nothing listens on: bound, then released. */
async function deadPort(): Promise<string> {
  const { server, url } = await listen(() => undefined);
  await new Promise<void>((r) => server.close(() => r()));
  return url;
}

describe('linesmith status', () => {
  it('exits non-zero with a clear message when nothing listens at --url', async () => {
    const url = await deadPort();
    const r = await linesmith(['status', '--url', url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `cannot reach a linesmith runtime at ${url}/status (connection refused: nothing listens there) [LS_ERR_STATUS_UNREACHABLE]`,
    );
    expect(r.stderr).toContain('metrics: { enabled: true }');
  });

  it('refuses a --url that is not http(s) with the usage exit code', async () => {
    const r = await linesmith(['status', '--url', 'ftp://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--url: expected an http:\/\/ or https:\/\/ URL/);
  });
});

describe('fetchStatus', () => {
  it('takes the base URL or either endpoint', () => {
    expect(statusUrlOf('http://127.0.0.1:9464')).toBe('http://127.0.0.1:9464/status');
    expect(statusUrlOf('http://127.0.0.1:9464/')).toBe('http://127.0.0.1:9464/status');
    expect(statusUrlOf('http://127.0.0.1:9464/metrics')).toBe('http://127.0.0.1:9464/status');
    expect(statusUrlOf('http://h:1/prefix/status?x=1')).toBe('http://h:1/prefix/status');
  });

  it('throws StatusUnreachableError on a dead port and StatusResponseError when something else answers', async () => {
    await expect(fetchStatus(await deadPort())).rejects.toBeInstanceOf(StatusUnreachableError);
    const { server, url } = await listen((req, res) => {
      if (req.url === '/status') res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
      else res.writeHead(404).end();
    });
    try {
      const err = await fetchStatus(url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StatusResponseError);
      expect((err as StatusResponseError).code).toBe('LS_ERR_STATUS_RESPONSE');
      expect((err as Error).message).toContain('format');
    } finally {
      server.close();
    }
  });
});
