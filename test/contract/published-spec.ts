import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The exchange's two published OpenAPI descriptions, read from ../shared/spec/ at test time
 * (they stay outside the repository), with every operation indexed by method and path and
 * every schema turned into plain JSON Schema that ajv validates.
 */

export const SPEC_DIR = fileURLToPath(new URL('../../../shared/spec/', import.meta.url));
export const SPEC_FILES = ['exchange-openapi.json', 'exchange-openapi-graded.json'] as const;
export type SpecFile = (typeof SPEC_FILES)[number];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;

export interface PublishedResponse {
  /** The status key as published (`200`, `4XX`, `default`). */
  readonly key: string;
  /** JSON Schema of the application/json body, or undefined when the description gives none. */
  readonly schema: Json | undefined;
}

export interface PublishedOperation {
  readonly file: SpecFile;
  readonly method: string;
  readonly path: string;
  /** True when the method is published only through the `x-alternate-methods` of another. */
  readonly alternate: boolean;
  readonly responses: ReadonlyMap<string, PublishedResponse>;
  /** The operation declares parameters or a request body. */
  readonly takesInput: boolean;
  /** The operation declares a request body. */
  readonly takesBody: boolean;
  /** The operation's effective security requirement is not empty. */
  readonly requiresLogin: boolean;
  readonly match: RegExp;
}

export interface PublishedSpec {
  readonly operations: readonly PublishedOperation[];
  /** Per file, the converted `components.schemas`, as ajv `definitions` under the file's `$id`. */
  readonly definitions: ReadonlyMap<SpecFile, Json>;
}

let cached: PublishedSpec | undefined;

export function loadPublishedSpec(): PublishedSpec {
  cached ??= build();
  return cached;
}

/** Every operation that serves `method path` (one per file that publishes it). */
export function operationsFor(spec: PublishedSpec, method: string, path: string): PublishedOperation[] {
  const m = method.toUpperCase();
  return spec.operations.filter((o) => o.method === m && o.match.test(path));
}

function build(): PublishedSpec {
  const operations: PublishedOperation[] = [];
  const definitions = new Map<SpecFile, Json>();
  for (const file of SPEC_FILES) {
    const doc = JSON.parse(readFileSync(SPEC_DIR + file, 'utf8')) as Json;
    const components = (doc.components ?? {}) as Json;
    const schemas = (components.schemas ?? {}) as Record<string, Json>;
    const defs: Json = {};
    for (const [name, s] of Object.entries(schemas)) defs[name] = toJsonSchema(s, file);
    definitions.set(file, defs);
    const namedResponses = (components.responses ?? {}) as Record<string, Json>;
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
      const match = pathPattern(path);
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const responses = new Map<string, PublishedResponse>();
        for (const [key, raw] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
          const r = resolveResponse(raw, namedResponses);
          const content = (r.content ?? {}) as Record<string, Json>;
          const json = content['application/json'];
          responses.set(key, { key, schema: json?.schema ? toJsonSchema(json.schema as Json, file) : undefined });
        }
        const params = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])];
        const takesInput = params.length > 0 || op.requestBody !== undefined;
        const security = (op.security ?? doc.security ?? []) as unknown[];
        const common = {
          file,
          path,
          responses,
          takesInput,
          takesBody: op.requestBody !== undefined,
          requiresLogin: security.length > 0,
          match,
        };
        operations.push({ ...common, method: method.toUpperCase(), alternate: false });
        for (const alt of (op['x-alternate-methods'] ?? []) as string[])
          operations.push({ ...common, method: alt.toUpperCase(), alternate: true });
      }
    }
  }
  return { operations, definitions };
}

function resolveResponse(raw: Json, named: Record<string, Json>): Json {
  const ref = raw.$ref;
  if (typeof ref !== 'string') return raw;
  const name = /^#\/components\/responses\/(.+)$/.exec(ref)?.[1];
  const found = name ? named[name] : undefined;
  if (!found) throw new Error(`unresolvable response reference ${ref}`);
  return found;
}

function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** Keywords that only annotate a schema; they do not constrain what validates. */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'deprecated',
  'title',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'discriminator',
  'default',
]);

/**
 * An OpenAPI schema object as JSON Schema (draft-07, which ajv validates by default):
 * `nullable: true` admits null (in `type` and in `enum`, or as an `anyOf` branch when the
 * schema has no `type`), component references point at the file's definitions, and
 * annotations and `x-` extensions go. Every constraining keyword is kept as published.
 */
export function toJsonSchema(schema: Json, file: SpecFile): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k) || k.startsWith('x-') || k === 'nullable') continue;
    switch (k) {
      case '$ref': {
        const name = /^#\/components\/schemas\/(.+)$/.exec(String(v))?.[1];
        if (!name) throw new Error(`unsupported schema reference ${String(v)} in ${file}`);
        out.$ref = `${file}#/definitions/${name}`;
        break;
      }
      case 'properties':
      case 'patternProperties':
        out[k] = Object.fromEntries(
          Object.entries(v as Record<string, Json>).map(([name, s]) => [name, toJsonSchema(s, file)]),
        );
        break;
      case 'items':
      case 'not':
        out[k] = Array.isArray(v) ? v.map((s: Json) => toJsonSchema(s, file)) : toJsonSchema(v as Json, file);
        break;
      case 'additionalProperties':
        out[k] = typeof v === 'boolean' ? v : toJsonSchema(v as Json, file);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[k] = (v as Json[]).map((s) => toJsonSchema(s, file));
        break;
      default:
        out[k] = v;
    }
  }
  if (schema.nullable !== true) return out;
  if (out.type !== undefined) {
    const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type as string];
    if (!types.includes('null')) out.type = [...types, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}
