import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../src/exchange/socket/cursor-file.ts';

const dir = () => mkdtemp(join(tmpdir(), 'ls-cursor-'));

describe('FileCursorStore', () => {
  it('reads back what it saved, owner-only, with no temp file left behind', async () => {
    const d = await dir();
    const path = join(d, 'sub', 'cursor');
    expect(await new FileCursorStore(path).load()).toEqual({ kind: 'none' });
    const store = new FileCursorStore(path);
    await Promise.all([store.save('1768478400040-3'), store.save('1768478400041-0')]);
    expect(await readFile(path, 'utf8')).toBe('1768478400041-0\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(d, 'sub'))).toEqual(['cursor']);
    expect(await new FileCursorStore(path).load()).toEqual({ kind: 'cursor', cursor: '1768478400041-0' });
  });

  it('calls a file that holds no message id damaged, and writes nothing for an unchanged or null cursor', async () => {
    const d = await dir();
    const path = join(d, 'cursor');
    await writeFile(path, 'not-a-cursor\n');
    const loaded = await new FileCursorStore(path).load();
    expect(loaded.kind).toBe('damaged');
    await writeFile(path, '5-1\n');
    const store = new FileCursorStore(path);
    expect(await store.load()).toEqual({ kind: 'cursor', cursor: '5-1' });
    await writeFile(path, 'edited\n');
    // The file holds what was loaded as far as the store knows: saving the same cursor is a no-op.
    await store.save('5-1');
    await store.save(null);
    expect(await readFile(path, 'utf8')).toBe('edited\n');
    await store.save('5-2');
    expect(await readFile(path, 'utf8')).toBe('5-2\n');
  });
});
