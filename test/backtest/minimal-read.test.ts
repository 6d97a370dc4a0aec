import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { minimalRead } from '../../src/backtest/tape/minimal-read.ts';

const dir = mkdtempSync(join(tmpdir(), 'ls-minimal-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines long enough that a 256 kB block ends inside one. */
function text(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(JSON.stringify({ t: i, k: 'price', pad: 'x'.repeat(200 + (i % 37)) }));
  return out.join('\n');
}

describe('the minimal read of a recording', () => {
  it('parses every line of gzip and plain files, across block ends, the last one without its newline', async () => {
    const body = text(3_000);
    const gz = join(dir, 'a.jsonl.gz');
    const plain = join(dir, 'b.jsonl');
    writeFileSync(gz, gzipSync(`${body}\n`));
    // A bad line and an empty one, and no newline at the end.
    writeFileSync(plain, `${body}\n{not json\n\n${body}`);
    const r = await minimalRead([gz, plain]);
    expect(r.lines).toBe(3_000 + 3_000 + 1 + 3_000);
    expect(r.parsedLines).toBe(9_000);
    expect(r.bytes).toBe(Buffer.byteLength(body) * 3 + 1 + '\n{not json\n\n'.length);
  });

  it('stops after the sample size asked for', async () => {
    const gz = join(dir, 'c.jsonl.gz');
    writeFileSync(gz, gzipSync(`${text(6_000)}\n`));
    const whole = await minimalRead([gz]);
    const sample = await minimalRead([gz], 300_000);
    expect(sample.bytes).toBeGreaterThanOrEqual(300_000);
    expect(sample.bytes).toBeLessThan(whole.bytes);
    expect(sample.lines).toBeLessThan(whole.lines);
    expect(sample.lines).toBeGreaterThan(300_000 / 300);
  });
});
