import { describe, expect, it } from 'vitest';
import { backtest, sampleRecording } from 'linesmith/testing';

// The sample recording that comes with linesmith: 20 minutes of two games with deep books.
const feeds = [sampleRecording('paper-seed13-deep')];

describe('fair-quoter', () => {
  it('quotes, trades and keeps within its liability caps on the sample recording', async () => {
    const { report } = await backtest({ config: 'config.yaml', feeds });
    expect(report.metrics.orders.placed).toBeGreaterThan(0);
    expect(report.metrics.volume.fills).toBeGreaterThan(0);
    // The runtime's total cap (config.yaml, risk.maxTotalLiability) holds at every instant.
    expect(report.metrics.maxLiability).toBeGreaterThanOrEqual(-5000);
  });
});
