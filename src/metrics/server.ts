import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { dashboardHtml } from './dashboard/page.ts';
import type { DashboardSnapshot } from './dashboard/snapshot.ts';
import { MetricsListenError } from './errors.ts';
import type { StatusReport } from './status-report.ts';
import { urlHost } from '../shared/url-host.ts';

export interface MetricsServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly registry: Registry;
  readonly status: () => Promise<StatusReport>;
  /** With it, `/` serves the live dashboard page and `/dashboard.json` what it reads. */
  readonly dashboard?: () => Promise<DashboardSnapshot>;
  readonly logger?: Logger;
}

export interface MetricsServer {
  /** `http://host:port`, the port resolved: `/metrics`, `/status` and the dashboard (`/`) hang off it. */
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The runtime's read-only HTTP endpoint: `GET /metrics` (Prometheus text format, from the
 * runtime's own registry), `GET /status` (the JSON report `linesmith status` prints) and,
 * given a dashboard source, `GET /` (the live dashboard page) and `GET /dashboard.json`
 * (what it reads). Nothing else; no request changes anything.
 */
export async function startMetricsServer(o: MetricsServerOptions): Promise<MetricsServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    if (path === '/metrics') send(res, 200, o.registry.contentType, await o.registry.metrics());
    else if (path === '/status')
      send(res, 200, 'application/json; charset=utf-8', `${JSON.stringify(await o.status())}\n`);
    else if (o.dashboard && path === '/') send(res, 200, 'text/html; charset=utf-8', dashboardHtml());
    else if (o.dashboard && path === '/dashboard.json')
      send(res, 200, 'application/json; charset=utf-8', `${JSON.stringify(await o.dashboard())}\n`);
    else
      send(
        res,
        404,
        'text/plain; charset=utf-8',
        `not found: try ${o.dashboard ? '/ (the dashboard), ' : ''}/metrics or /status\n`,
      );
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      o.logger?.error({ err, path: req.url }, 'metrics endpoint failed');
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new MetricsListenError(o.host, o.port, err)));
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost(o.host)}:${port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
