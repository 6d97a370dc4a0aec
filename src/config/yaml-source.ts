import { isMap, isNode, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from './errors.ts';

/**
 * A parsed YAML file that can point back into itself: the value for validation, and the
 * document and line counter to turn a validation path into a line and column. The same
 * approach as the simulator's scenario loader (src/sim/market/scenario.ts).
 */
export interface YamlSource {
  readonly file: string;
  readonly doc: Document;
  readonly lines: LineCounter;
  readonly value: unknown;
}

export type Position = { readonly line: number; readonly column: number };
type Path = readonly PropertyKey[];

/**
 * A yaml error message without the source it quotes: the first line only (later lines show
 * the source), cut before `: ` (where "Not a YAML token: …" and its kind quote the text).
 * The source may hold anything, a pasted password included; the position says where.
 */
function yamlMessage(message: string): string {
  const first = message.split('\n')[0] ?? '';
  const cut = first.indexOf(': ');
  return cut === -1 ? first : first.slice(0, cut);
}

/** Parse `text`; YAML syntax errors (and duplicate keys) become a ConfigError with their positions. */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
        return { file, line: pos.line, column: pos.col, path: '', message: `invalid YAML: ${yamlMessage(e.message)}` };
      }),
    );
  }
  // A key that is a mapping, a list, an alias or a tagged binary/date would be turned into
  // text by toJS (with a process warning quoting it) and then quoted in messages as a path:
  // refused, unquoted.
  const complexKeys: ConfigIssue[] = [];
  visit(doc, {
    Pair(_, pair) {
      if (pair.key === null || (isScalar(pair.key) && (pair.key.value === null || typeof pair.key.value !== 'object')))
        return;
      const pos = isNode(pair.key) && pair.key.range ? lines.linePos(pair.key.range[0]) : { line: 1, col: 1 };
      complexKeys.push({
        file,
        line: pos.line,
        column: pos.col,
        path: '',
        message: 'invalid YAML: a mapping key must be plain text, not a mapping, list, alias or tagged value',
      });
    },
  });
  if (complexKeys.length > 0) throw new ConfigError(file, complexKeys);
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (e) {
    // Aliases expanding past the yaml library's limit (a "billion laughs" file) throw here,
    // after parsing succeeded.
    throw new ConfigError(file, [
      {
        file,
        line: 1,
        column: 1,
        path: '',
        message: `invalid YAML: ${yamlMessage(e instanceof Error ? e.message : String(e))}`,
      },
    ]);
  }
  return { file, doc, lines, value };
}

/**
 * Line and column of the node at `path`, or of its nearest existing ancestor (a missing
 * key points at the mapping that lacks it). With `key`, the position of that key inside
 * the mapping at `path` (an unknown key is reported where it is written).
 */
export function positionOf(src: YamlSource, path: Path, key?: string): Position {
  const keys = path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  for (let n = keys.length; n >= 0; n--) {
    const node = n === 0 ? src.doc.contents : src.doc.getIn(keys.slice(0, n), true);
    if (!isNode(node) || !node.range) continue;
    if (n === keys.length && key !== undefined && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (pair && isNode(pair.key) && pair.key.range) return at(src, pair.key.range[0]);
    }
    return at(src, node.range[0]);
  }
  return { line: 1, column: 1 };
}

function at(src: YamlSource, offset: number): Position {
  const p = src.lines.linePos(offset);
  return { line: p.line, column: p.col };
}

export function dotted(path: Path): string {
  return path.map(String).join('.');
}

type ZodIssue = z.core.$ZodIssue;

export interface ZodIssueOptions {
  /** Where the validated value sits in the file (a strategy's params are validated on their own). */
  readonly prefix?: Path;
  /** Unknown keys already reported another way. */
  readonly skipKey?: (key: string) => boolean;
  /** Named in the message of an unknown key at the document's top level. */
  readonly rootKeys?: readonly string[];
}

/**
 * zod issues as located ConfigIssues. An issue naming several unknown keys becomes one
 * issue per key, each at its own line.
 */
export function issuesFromZod(
  src: YamlSource,
  issues: readonly ZodIssue[],
  options: ZodIssueOptions = {},
): ConfigIssue[] {
  const { prefix = [], skipKey = () => false, rootKeys } = options;
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        if (skipKey(key)) continue;
        const known = path.length === 0 && rootKeys ? ` (the sections are ${rootKeys.join(', ')})` : '';
        out.push({
          file: src.file,
          ...positionOf(src, path, key),
          path: dotted([...path, key]),
          message: `unknown key${known}`,
        });
      }
      continue;
    }
    out.push({
      file: src.file,
      ...positionOf(src, path),
      path: dotted(path),
      message: messageOf(issue, valueAt(src.value, path)),
    });
  }
  return out;
}

function messageOf(issue: ZodIssue, value: unknown): string {
  // YAML words: the file has mappings and lists, not objects and arrays.
  const text = issue.message
    .replace(/\bexpected object\b/, 'expected a mapping')
    .replace(/\bexpected array\b/, 'expected a list');
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
    value === undefined
  ) {
    return `required field is missing (${text.replace(/^Invalid (input|option): /, '').replace(/, received undefined$/, '')})`;
  }
  return text;
}

export function valueAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
