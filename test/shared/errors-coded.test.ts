import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = join(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|mts)$/.test(e.name) ? [p] : [];
  });
}

const files = sources(srcDir).map((p) => ({ path: relative(srcDir, p), text: readFileSync(p, 'utf8') }));

describe('every error linesmith throws is coded', () => {
  it('finds source files to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('derives every error class from LinesmithError, never straight from a built-in error', () => {
    const builtIn = /class\s+(\w+)\s+extends\s+(Error|TypeError|RangeError|SyntaxError)\b/g;
    const found = files.flatMap((f) => [...f.text.matchAll(builtIn)].map((m) => `${f.path}: ${m[1]} extends ${m[2]}`));
    expect(found).toEqual(['shared/errors.ts: LinesmithError extends Error']);
  });

  it('gives each literal code one class, in the LS_ERR_ form', () => {
    const codes = files.flatMap((f) =>
      [...f.text.matchAll(/readonly code = '([^']+)'/g)].map((m) => ({ code: m[1]!, where: f.path })),
    );
    expect(codes.length).toBeGreaterThan(20);
    expect(codes.filter((c) => !/^LS_ERR_[A-Z0-9_]+$/.test(c.code))).toEqual([]);
    const seen = new Map<string, string>();
    const twice = codes.filter((c) => {
      const first = seen.get(c.code);
      seen.set(c.code, c.where);
      return first !== undefined;
    });
    expect(twice).toEqual([]);
  });
});
