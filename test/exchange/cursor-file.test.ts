import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../src/exchange/socket/cursor-file.ts';

const dir = () => mkdtemp(join(tmpdir(), 'ls-cursor-'));
const VENUE = 'wss://stream.exchange.example';
const NOW = 1_768_478_400_000;

describe('FileCursorStore', () => {
  it('reads back what it saved, owner-only, with no temp file left behind', async () => {
    const d = await dir();
    const path = join(d, 'sub', 'cursor');
    expect(await new FileCursorStore(path, VENUE).load(NOW)).toEqual({ kind: 'none' });
    const store = new FileCursorStore(path, VENUE);
    await Promise.all([store.save('1768478400040-3'), store.save('1768478400041-0')]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ venue: VENUE, cursor: '1768478400041-0' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(d, 'sub'))).toEqual(['cursor']);
    expect(await new FileCursorStore(path, VENUE).load(NOW)).toEqual({ kind: 'cursor', cursor: '1768478400041-0' });
  });

  it("refuses a damaged file, another venue's cursor, and one far ahead of the clock", async () => {
    const path = join(await dir(), 'cursor');
    const loadWith = async (text: string) => {
      await writeFile(path, text);
      return new FileCursorStore(path, VENUE).load(NOW);
    };
    expect(await loadWith('not json')).toMatchObject({
      kind: 'damaged',
      reason: expect.stringContaining('does not hold'),
    });
    expect(await loadWith(JSON.stringify({ venue: VENUE, cursor: 'x-1' }))).toMatchObject({ kind: 'damaged' });
    expect(await loadWith(JSON.stringify({ venue: 'ws://127.0.0.1:8080', cursor: '5-1' }))).toMatchObject({
      kind: 'damaged',
      reason: expect.stringContaining('ws://127.0.0.1:8080'),
    });
    expect(await loadWith(JSON.stringify({ venue: VENUE, cursor: `${NOW + 2 * 86_400_000}-0` }))).toMatchObject({
      kind: 'damaged',
      reason: expect.stringContaining('ahead'),
    });
    expect(await loadWith(JSON.stringify({ venue: VENUE, cursor: `${NOW}-7` }))).toEqual({
      kind: 'cursor',
      cursor: `${NOW}-7`,
    });
  });

  it('writes nothing for an unchanged or null cursor, and tries again after a failed write', async () => {
    const d = await dir();
    const path = join(d, 'cursor');
    await writeFile(path, JSON.stringify({ venue: VENUE, cursor: '5-1' }));
    const store = new FileCursorStore(path, VENUE);
    await store.load(NOW);
    await writeFile(path, 'edited\n');
    // As far as the store knows the file holds what it loaded: saving that again is a no-op.
    await store.save('5-1');
    await store.save(null);
    expect(await readFile(path, 'utf8')).toBe('edited\n');

    // A directory where the file should be: the rename fails, whoever runs the test.
    const blocked = join(d, 'blocked');
    await mkdir(join(blocked, 'inside'), { recursive: true });
    const failing = new FileCursorStore(blocked, VENUE);
    await expect(failing.save('6-0')).rejects.toThrow();
    await rm(blocked, { recursive: true });
    await failing.save('6-0');
    expect(JSON.parse(await readFile(blocked, 'utf8')).cursor).toBe('6-0');
  });
});
