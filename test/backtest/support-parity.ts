import { resolve } from 'node:path';

/**
 * The parity tests' run configuration: quotes far from the market (a 20-point margin), so no
 * taker meets them, positions stay flat in both runs and every decision depends on the
 * recorded market alone; throttle 0, so a decision follows the event that caused it, not a
 * timer whose phase could differ. `speed` and `recordingDir` for a session on the wall clock.
 */
export function parityConfig(o: { speed?: number; recordingDir?: string } = {}): string {
  return `
paper:
  seed: 7
${o.speed !== undefined ? `  speed: ${o.speed}\n` : ''}  scenario: ${resolve('backtest/data/sample-scenario.yaml')}
strategies:
  - id: wide
    module: fixed-spread
    params: { margin: 0.2 }
    live: keep
    throttleMs: 0
risk:
  maxGameLiability: 500
  maxTotalLiability: 5000
  maxOrderSize: 100
  maxOrdersPerGame: 40
${
  o.recordingDir !== undefined
    ? `logging:
  level: silent
  pretty: false
recording:
  enabled: true
  dir: ${o.recordingDir}
`
    : ''
}`;
}
