import { afterAll, afterEach, beforeEach } from 'vitest';
import { observeResponses, type ObservedResponse } from '../../src/sim/http/response-tap.ts';
import type { ResponseChecker } from './response-check.ts';

/**
 * Every test file: each HTTP answer of any simulator the file starts is checked against the
 * exchange's published descriptions. An answer that does not match fails the test that was
 * running when it was sent (or the file, when no test was), with the route and the error.
 *
 * It costs a file that starts no simulator nothing: the tap's slot imports nothing, and the
 * checker (the published descriptions, their schemas compiled) loads on the first answer.
 * Answers sent while it loads wait for it, and are checked by the next hook at the latest.
 */
let checker: ResponseChecker | undefined;
let loading: Promise<ResponseChecker> | undefined;
let unchecked: ObservedResponse[] = [];
let pending: string[] = [];

/** The checker of this test file's answers, loaded on first use. */
export async function tapChecker(): Promise<ResponseChecker> {
  loading ??= import('./response-check.ts').then((m) => (checker = new m.ResponseChecker()));
  return loading;
}

function check(c: ResponseChecker, r: ObservedResponse): void {
  // A throw here would end inside the simulator's request handler, after the answer went out, and be lost.
  try {
    const verdict = c.check(r);
    if (verdict.kind === 'invalid') pending.push(verdict.message);
  } catch (e) {
    pending.push(
      `${r.method} ${r.path} ${r.status}: the check itself failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

observeResponses((r) => {
  if (checker !== undefined) return check(checker, r);
  unchecked.push(r);
  void tapChecker();
});

async function takePending(): Promise<string[]> {
  if (unchecked.length > 0) {
    const c = await tapChecker();
    const waiting = unchecked;
    unchecked = [];
    for (const r of waiting) check(c, r);
  }
  const out = pending;
  pending = [];
  return out;
}

function fail(where: string, problems: readonly string[]): never {
  throw new Error(
    `${problems.length} simulator response(s) ${where} do not match the published API description:\n${problems.join('\n')}`,
  );
}

beforeEach(async () => {
  const before = await takePending();
  if (before.length > 0) fail('sent before this test', before);
});

afterEach(async () => {
  const during = await takePending();
  if (during.length > 0) fail('sent during this test', during);
});

afterAll(async () => {
  const late = await takePending();
  if (late.length > 0) fail('sent outside any test', late);
});
