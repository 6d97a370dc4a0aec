/** Where the metrics endpoint listens unless the config says otherwise: this machine only, as it has no authentication. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_METRICS_PORT = 9464;
