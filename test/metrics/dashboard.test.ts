import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardSnapshot } from '../../src/metrics/dashboard/snapshot.ts';
import { startMetricsServer, type MetricsServer } from '../../src/metrics/server.ts';
import type { StatusReport } from '../../src/metrics/status-report.ts';

const STATUS = { format: 'linesmith-status/1', session: 'paper' } as unknown as StatusReport;
const SNAPSHOT: DashboardSnapshot = {
  format: 'linesmith-dashboard/1',
  status: STATUS,
  markedPnl: 1.5,
  caps: { maxGameLiability: 500, maxTotalLiability: 5000 },
  games: [],
  strategyErrors: null,
};

let server: MetricsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the dashboard routes of the metrics server', () => {
  it('serves the page at / and its data at /dashboard.json, self-contained and read-only', async () => {
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      status: async () => STATUS,
      dashboard: async () => SNAPSHOT,
    });
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain("connect-src 'self'");
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).toContain("fetch('dashboard.json'");
    const data = await fetch(`${server.url}/dashboard.json`);
    expect(data.status).toBe(200);
    expect(await data.json()).toEqual(SNAPSHOT);
    expect((await fetch(`${server.url}/`, { method: 'POST' })).status).toBe(405);
  });

  it('without a dashboard source: / is not found, as before', async () => {
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry: new Registry(),
      status: async () => STATUS,
    });
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('not found: try /metrics or /status\n');
    expect((await fetch(`${server.url}/dashboard.json`)).status).toBe(404);
  });
});
