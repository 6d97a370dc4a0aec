import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RECORDINGS, sampleRecording, SampleRecordingError } from 'linesmith/testing';

describe('linesmith/testing sample recordings', () => {
  it('names the folders shipped in backtest/data, paper-seed13-deep by default', () => {
    expect(sampleRecording()).toMatch(/backtest\/data\/paper-seed13-deep$/);
    for (const name of SAMPLE_RECORDINGS) expect(existsSync(sampleRecording(name)), name).toBe(true);
  });

  it('refuses an unknown name with a coded error listing the known ones', () => {
    expect(() => sampleRecording('nope' as never)).toThrow(SampleRecordingError);
    expect(() => sampleRecording('nope' as never)).toThrow(/known: paper-seed7, paper-seed11-drops, paper-seed13-deep/);
  });
});
