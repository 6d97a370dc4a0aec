import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ObservedResponse } from '../../src/sim/server.ts';
import { requireDefinitionOverridesApply, statusOverride } from './exchange-api-overrides.ts';
import {
  loadPublishedSpec,
  operationsFor,
  SPEC_FILES,
  type PublishedOperation,
  type PublishedResponse,
} from './published-spec.ts';

/**
 * Checks one simulator answer against the exchange's published descriptions: the status
 * must be one the description lists for that method and path (429 and 5xx excepted: every
 * route can answer them, exchange-api §7.4 and §8), and a body the description gives a
 * schema for must validate against it, in every file that publishes the route.
 */

export type Verdict =
  | { readonly kind: 'valid'; readonly key: string }
  | { readonly kind: 'generic'; readonly key: string }
  | { readonly kind: 'skipped'; readonly key: string; readonly why: 'admin' | 'unpublished' }
  | { readonly kind: 'invalid'; readonly key: string; readonly message: string };

/** `METHOD path status` of an answer, with the published path template. */
function keyOf(method: string, path: string, status: number): string {
  return `${method} ${path} ${status}`;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export class ResponseChecker {
  readonly #ajv: Ajv;
  readonly #compiled = new Map<object, ValidateFunction>();
  readonly counts = { valid: 0, generic: 0, invalid: 0, skippedAdmin: 0, skippedUnpublished: 0 };
  /** `METHOD /template status` of every answer that validated against a schema or a listed status. */
  readonly validated = new Map<string, number>();

  constructor() {
    const spec = loadPublishedSpec();
    this.#ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
    addFormats(this.#ajv);
    // `password` only tells a form to hide the value; every string is one.
    this.#ajv.addFormat('password', true);
    const definitions = requireDefinitionOverridesApply(spec.definitions);
    for (const file of SPEC_FILES) this.#ajv.addSchema({ $id: file, definitions: definitions.get(file) ?? {} });
  }

  check(r: ObservedResponse): Verdict {
    if (r.path.startsWith('/admin/')) {
      this.counts.skippedAdmin++;
      return { kind: 'skipped', key: keyOf(r.method, r.path, r.status), why: 'admin' };
    }
    const ops = operationsFor(loadPublishedSpec(), r.method, r.path);
    if (ops.length === 0) {
      this.counts.skippedUnpublished++;
      return { kind: 'skipped', key: keyOf(r.method, r.path, r.status), why: 'unpublished' };
    }
    const key = keyOf(r.method, ops[0]!.path, r.status);
    const problems: string[] = [];
    let generic = false;
    for (const op of ops) {
      const override = statusOverride(op, r.status);
      if (override) {
        const validate = this.#validator(override.schema);
        if (!validate(r.body))
          problems.push(`${op.file} (as exchange-api.md corrects it): ${formatErrors(validate.errors ?? [])}`);
        continue;
      }
      const published = responseFor(op, r.status);
      if (!published) {
        if (isGenericStatus(r.status)) generic = true;
        else
          problems.push(
            `${op.file}: status ${r.status} is not listed for ${op.method} ${op.path} (listed: ${[...op.responses.keys()].join(', ')})`,
          );
        continue;
      }
      if (!published.schema) continue;
      const validate = this.#validator(published.schema);
      if (!validate(r.body)) problems.push(`${op.file}: ${formatErrors(validate.errors ?? [])}`);
    }
    if (problems.length > 0) {
      this.counts.invalid++;
      return { kind: 'invalid', key, message: `${key}: ${problems.join('; ')}\n  body: ${preview(r.body)}` };
    }
    if (generic) {
      this.counts.generic++;
      return { kind: 'generic', key };
    }
    this.counts.valid++;
    this.validated.set(key, (this.validated.get(key) ?? 0) + 1);
    return { kind: 'valid', key };
  }

  #validator(schema: object): ValidateFunction {
    let v = this.#compiled.get(schema);
    if (!v) {
      v = this.#ajv.compile(schema);
      this.#compiled.set(schema, v);
    }
    return v;
  }
}

/** The published response for a status: the exact code, then its class (`4XX`), then `default`. */
function responseFor(op: PublishedOperation, status: number): PublishedResponse | undefined {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}

/** 429 (global per-IP limit, exchange-api §7.4, §8) and 5xx (server-side timeout, §7.1) can answer any request. */
export function isGenericStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function formatErrors(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 6)
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');
}

function preview(body: unknown): string {
  const text = JSON.stringify(body) ?? 'undefined';
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
