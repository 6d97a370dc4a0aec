import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { componentLogger, createRunLogger } from '../../src/config/logging.ts';
import { componentChild } from '../../src/shared/logger.ts';

/** A run logger writing JSON lines into an array (no pretty, no file). */
function capture(components: Record<string, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {}) {
  const lines: string[] = [];
  const stderr = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const root = createRunLogger({ level: 'info', pretty: false, components } as Parameters<typeof createRunLogger>[0], {
    stderr,
  });
  return { root, lines };
}

const keyCount = (line: string, key: string) => line.split(`"${key}":`).length - 1;

describe('component loggers', () => {
  it('a component inside a component writes one "component" key, the dotted name', () => {
    const { root, lines } = capture();
    const runtime = componentLogger(root, 'runtime');
    componentLogger(runtime, 'orders').info('placed');
    componentChild(componentLogger(root, 'sim'), 'market').info('opened');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(keyCount(l, 'component'), l).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ component: 'runtime.orders', msg: 'placed' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ component: 'sim.market', msg: 'opened' });
  });

  it('asking a component logger for its own component gives it back, and levels follow the dotted name', () => {
    const { root, lines } = capture({ runtime: 'warn', 'runtime.orders': 'debug' });
    const recorder = componentLogger(root, 'recorder');
    expect(componentChild(recorder, 'recorder')).toBe(recorder);
    const runtime = componentLogger(root, 'runtime');
    runtime.info('hidden: runtime is at warn');
    componentLogger(runtime, 'orders').debug('shown: runtime.orders is at debug');
    // Without a level of its own, a sub-component keeps its parent's.
    componentChild(runtime, 'other').info('hidden too');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown: runtime.orders is at debug']);
  });
});
