import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ConfigError } from '../../src/config/errors.ts';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultStrategyResolver, isModulePath } from '../../src/config/strategy-resolver.ts';
import type { StrategyResolver } from '../../src/config/types.ts';
import { FAKE_REGISTRY } from '../config/fake-registry.ts';
import { expectTyped, mutatedValue, toText, within, fuzzRuns } from './support.ts';

const EXAMPLE_FILE = fileURLToPath(new URL('../../config/example.yaml', import.meta.url));
const EXAMPLE = readFileSync(EXAMPLE_FILE, 'utf8');

/** Registry names only: a fuzzed `module: /some/path` is refused, never imported. */
const byName = defaultStrategyResolver(FAKE_REGISTRY);
const resolveStrategy: StrategyResolver = (ref, baseDir) =>
  isModulePath(ref) ? Promise.reject(new Error('paths are not loaded by the fuzz test')) : byName(ref, baseDir);

const MINIMAL = {
  strategies: [{ id: 's1', module: 'fixed-spread' }],
  risk: { maxGameLiability: 100, maxTotalLiability: 1000, maxOrderSize: 10, maxOrdersPerGame: 5 },
};
/** The example with every strategy's params left to the (fake) modules' defaults. */
const EXAMPLE_VALUE = parseYaml(EXAMPLE) as Record<string, unknown>;

/** Secrets a careless file might hold; never to be echoed by an error. */
const SECRET = 'Pw-config-7c1e5b2d9f3a';

async function outcome(text: string): Promise<'ok' | ConfigError> {
  try {
    const c = await within(parseConfigText(text, EXAMPLE_FILE, { resolveStrategy }), 5_000, 'parseConfigText');
    expect(Array.isArray(c.strategies)).toBe(true);
    return 'ok';
  } catch (err) {
    expectTyped(err, ConfigError);
    return err as ConfigError;
  }
}

const TOKENS = [
  'a:',
  'risk:',
  'strategies:',
  '  ',
  '\n',
  '\n  ',
  '- ',
  '&x ',
  '*x',
  '!!binary ',
  '!!set ',
  '!!omap ',
  '!foo ',
  '? ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '|',
  '>-',
  '#',
  '%YAML 1.2\n',
  '---\n',
  '...\n',
  '<<: *x',
  `password: ${SECRET}`,
  `token: ${SECRET}`,
  '~',
  'null',
  '0x1F',
  '.inf',
  '1e400',
  '\t',
  'module: fixed-spread',
  'id: s1',
  '\ufeff',
  '\u0000',
];

/** Line-level edits of the example file. */
const editedExample: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('drop', 'dup', 'indent', 'dedent', 'insert', 'swap', 'truncate'),
      fc.nat(),
      fc.nat(),
      fc.constantFrom(...TOKENS),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((edits) => {
    let lines = EXAMPLE.split('\n');
    for (const [op, a, b, tok] of edits) {
      const i = a % lines.length;
      const j = b % lines.length;
      switch (op) {
        case 'drop':
          lines.splice(i, 1);
          break;
        case 'dup':
          lines.splice(i, 0, lines[i]!);
          break;
        case 'indent':
          lines[i] = ` ${lines[i]}`;
          break;
        case 'dedent':
          lines[i] = lines[i]!.replace(/^ /, '');
          break;
        case 'insert':
          lines[i] = lines[i]!.slice(0, b % (lines[i]!.length + 1)) + tok + lines[i]!.slice(b % (lines[i]!.length + 1));
          break;
        case 'swap':
          [lines[i], lines[j]] = [lines[j]!, lines[i]!];
          break;
        case 'truncate':
          lines = lines.slice(0, i);
          break;
      }
      if (lines.length === 0) lines = [''];
    }
    return lines.join('\n');
  });

/** Structures: valid files mutated, written as YAML or as JSON (which YAML reads too). */
const mutatedStructure: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom<unknown>(MINIMAL, EXAMPLE_VALUE).chain(mutatedValue), fc.boolean())
  .map(([v, asYaml]) => {
    if (v === undefined) return '';
    if (!asYaml) return toText(v);
    try {
      return (stringifyYaml(v) as string | undefined) ?? '';
    } catch {
      return toText(v);
    }
  });

/** Aliases fanned out level over level. */
const aliasBomb: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 10 }))
  .map(([fan, depth]) => {
    const lines = [`a0: &a0 [${Array(fan).fill('x').join(', ')}]`];
    for (let d = 1; d < depth; d++)
      lines.push(
        `a${d}: &a${d} [${Array(fan)
          .fill(`*a${d - 1}`)
          .join(', ')}]`,
      );
    return lines.join('\n');
  });

const yamlText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: editedExample },
  { weight: 3, arbitrary: mutatedStructure },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((t) => t.join('')) },
  { weight: 1, arbitrary: aliasBomb },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.anything({ maxDepth: 3 }).map((v) => {
      try {
        return (stringifyYaml(v) as string | undefined) ?? '';
      } catch {
        return '';
      }
    }),
  },
);

describe('YAML configuration: fuzz', () => {
  it('the seeds load', async () => {
    expect(await outcome(stringifyYaml(MINIMAL))).toBe('ok');
    expect(await outcome(stringifyYaml(EXAMPLE_VALUE))).toBe('ok');
  });

  it('any text is a RunConfig or a ConfigError, never another throw or a hang, and never echoes a secret', async () => {
    let errors = 0;
    const runs = fuzzRuns(400);
    await fc.assert(
      fc.asyncProperty(yamlText, async (text) => {
        const out = await outcome(text);
        if (out === 'ok') return;
        errors++;
        expect(out.message).not.toContain(SECRET);
        for (const i of out.issues) expect(i.file).toBe(EXAMPLE_FILE);
      }),
      { numRuns: runs },
    );
    // Most texts are not a valid config: a quarter at least ends in a ConfigError.
    expect(errors).toBeGreaterThan(runs / 4);
  });

  // Regression: YAML syntax errors quoted the source after ": " ("Not a YAML token: <the
  // rest of the line>"), so a password pasted into a malformed file came back in the error.
  // Likewise a key that is itself a mapping (`? {password: …}`) was stringified into the
  // "unknown key" path, and into a process warning.
  it.each([
    `|password: ${SECRET}`,
    `risk:\n  |x ${SECRET}`,
    `a: "${SECRET}`,
    `>${SECRET}: 1`,
    `? password: ${SECRET}`,
    `? [${SECRET}]\n: 1`,
    `risk:\n  ? {token: ${SECRET}}\n  : 1`,
  ])('a syntax error does not quote the source (%j)', async (text) => {
    const out = await outcome(text);
    expect(out).toBeInstanceOf(ConfigError);
    expect((out as ConfigError).message).toMatch(/invalid YAML/);
    expect((out as ConfigError).message).not.toContain(SECRET);
  });

  // Regression: aliases expanding past the yaml library's limit ("billion laughs") parsed
  // without errors, then threw a bare ReferenceError when the document became a value.
  it('an alias bomb is a ConfigError', async () => {
    const bomb = [
      'a: &a [1,1,1,1,1,1,1,1,1]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    const out = await outcome(bomb);
    expect(out).toBeInstanceOf(ConfigError);
    expect((out as ConfigError).message).toMatch(/invalid YAML: .*alias/i);
  });
});
