import { afterAll, afterEach, beforeEach } from 'vitest';
import { observeResponses } from '../../src/sim/server.ts';
import { ResponseChecker } from './response-check.ts';

/**
 * Every test file: each HTTP answer of any simulator the file starts is checked against the
 * exchange's published descriptions. An answer that does not match fails the test that was
 * running when it was sent (or the file, when no test was), with the route and the error.
 */
let checker: ResponseChecker | undefined;
let pending: string[] = [];

/** The checker of this test file's answers, made on first use: files that start no simulator pay nothing for it. */
export function tapChecker(): ResponseChecker {
  checker ??= new ResponseChecker();
  return checker;
}

observeResponses((r) => {
  // A throw here would end inside the simulator's request handler, after the answer went out, and be lost.
  try {
    const verdict = tapChecker().check(r);
    if (verdict.kind === 'invalid') pending.push(verdict.message);
  } catch (e) {
    pending.push(`${r.method} ${r.path} ${r.status}: the check itself failed: ${e instanceof Error ? e.message : String(e)}`);
  }
});

function takePending(): string[] {
  const out = pending;
  pending = [];
  return out;
}

function fail(where: string, problems: readonly string[]): never {
  throw new Error(`${problems.length} simulator response(s) ${where} do not match the published API description:\n${problems.join('\n')}`);
}

beforeEach(() => {
  const before = takePending();
  if (before.length > 0) fail('sent before this test', before);
});

afterEach(() => {
  const during = takePending();
  if (during.length > 0) fail('sent during this test', during);
});

afterAll(() => {
  const late = takePending();
  if (late.length > 0) fail('sent outside any test', late);
});
