import { z } from 'zod';
import { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT } from '../../metrics/endpoint-defaults.ts';

/** The runtime's `/metrics` (Prometheus text) and `/status` (JSON, for `linesmith status`) endpoint. */
export interface MetricsConfig {
  /** Default false: no server, nothing listens. */
  readonly enabled: boolean;
  /** Address to bind (default 127.0.0.1: this machine only; the endpoint has no authentication). */
  readonly host: string;
  /** TCP port (default 9464); 0 picks a free one, logged at start. */
  readonly port: number;
}

export { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT };

export function metricsSection() {
  return z
    .strictObject({
      enabled: z.boolean({ error: 'expected true or false' }).default(false),
      host: z
        .string({ error: 'expected a host name or address' })
        .trim()
        .min(1, 'expected a host name or address')
        .default(DEFAULT_METRICS_HOST),
      port: z
        .int({ error: 'expected a whole number from 0 to 65535 (0 picks a free port)' })
        .min(0, 'must be from 0 to 65535 (0 picks a free port)')
        .max(65_535, 'must be from 0 to 65535 (0 picks a free port)')
        .default(DEFAULT_METRICS_PORT),
    })
    .prefault({}) satisfies z.ZodType<MetricsConfig, unknown>;
}
