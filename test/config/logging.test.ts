import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentLogger, createRunLogger } from '../../src/config/logging.ts';
import type { LoggingConfig } from '../../src/config/types.ts';
import { createLogger, REDACTED } from '../../src/shared/logger.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linesmith-logging-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fake stderr that records what is written to it. */
function sink(isTTY: boolean): Writable & { readonly isTTY: boolean; text(): string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(w, { isTTY, text: () => chunks.join('') });
}

let n = 0;
function config(over: Partial<LoggingConfig>): LoggingConfig {
  return { level: 'info', pretty: false, components: {}, ...over };
}

async function jsonLines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const SECRETS = {
  password: 'hunter2',
  token: 'tok-123',
  req: { headers: { authorization: 'Bearer abc' } },
  session: { token: 'tok-456' },
};

describe('createRunLogger', () => {
  it('writes redacted JSON lines to the file, creating its directory, and nothing to stderr when not pretty', async () => {
    const file = join(dir, `nested-${++n}`, 'run.log');
    const stderr = sink(false);
    const root = createRunLogger(config({ file }), { stderr });
    root.info(SECRETS, 'logged in');
    componentLogger(root, 'exchange').warn({ credentials: { username: 'bob', password: 'pw' } }, 'retrying');

    const lines = await jsonLines(file);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'logged in',
      password: REDACTED,
      token: REDACTED,
      req: { headers: { authorization: REDACTED } },
      session: { token: REDACTED },
    });
    expect(lines[1]).toMatchObject({ level: 40, msg: 'retrying', component: 'exchange', credentials: REDACTED });
    const raw = await readFile(file, 'utf8');
    expect(raw).not.toMatch(/hunter2|tok-123|tok-456|Bearer abc|"pw"/);
    expect(stderr.text()).toBe('');
  });

  it('honours component levels: more verbose, quieter, inherited by dotted names, else the root level', async () => {
    const file = join(dir, `levels-${++n}.log`);
    const root = createRunLogger(
      config({ file, level: 'warn', components: { engine: 'debug', noisy: 'error', 'engine.book': 'silent' } }),
      { stderr: sink(false) },
    );
    const engine = componentLogger(root, 'engine');
    const orders = componentLogger(root, 'engine.orders');
    const book = componentLogger(root, 'engine.book');
    const noisy = componentLogger(root, 'noisy');
    const other = componentLogger(root, 'other');

    engine.debug('engine debug');
    engine.trace('engine trace');
    orders.debug('orders debug');
    book.error('book error');
    noisy.warn('noisy warn');
    noisy.error('noisy error');
    other.info('other info');
    other.warn('other warn');
    root.info('root info');
    root.warn('root warn');

    expect((await jsonLines(file)).map((l) => [l['component'], l['msg']])).toEqual([
      ['engine', 'engine debug'],
      ['engine.orders', 'orders debug'],
      ['noisy', 'noisy error'],
      ['other', 'other warn'],
      [undefined, 'root warn'],
    ]);
    expect([engine.level, orders.level, book.level, noisy.level, other.level]).toEqual([
      'debug',
      'debug',
      'silent',
      'error',
      'warn',
    ]);
  });

  it('pretty on a terminal: human lines on stderr, redacted too, alongside the JSON file', async () => {
    const file = join(dir, `pretty-${++n}.log`);
    const stderr = sink(true);
    const root = createRunLogger(config({ file, pretty: 'auto' }), { stderr });
    componentLogger(root, 'exchange').info({ password: 'hunter2' }, 'hello there');
    const text = stderr.text();
    expect(text).toContain('hello there');
    expect(text).toContain(REDACTED);
    expect(text).not.toContain('hunter2');
    expect(() => JSON.parse(text.split('\n')[0]!)).toThrow();
    expect((await jsonLines(file)).map((l) => l['msg'])).toEqual(['hello there']);
  });

  it('auto is not pretty off a terminal; without a file, JSON goes to stderr', () => {
    const stderr = sink(false);
    const root = createRunLogger(config({ pretty: 'auto' }), { stderr });
    root.info({ token: 'tok-1' }, 'plain');
    const line = JSON.parse(stderr.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'plain', token: REDACTED });
  });

  it('pretty: true forces human lines without a terminal, uncoloured', () => {
    const stderr = sink(false);
    createRunLogger(config({ pretty: true }), { stderr }).warn('forced');
    expect(stderr.text()).toContain('forced');
    // eslint-disable-next-line no-control-regex
    expect(stderr.text()).not.toMatch(/\u001b\[/);
  });
});

describe('componentLogger', () => {
  it('on a logger not made by createRunLogger, tags the component and keeps the root level', () => {
    const out = sink(false);
    const root = createLogger({ level: 'warn', destination: out });
    const c = componentLogger(root, 'x');
    c.info('dropped');
    c.warn('kept');
    expect(c.level).toBe('warn');
    expect(
      out
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ).toMatchObject([{ component: 'x', msg: 'kept' }]);
  });
});
