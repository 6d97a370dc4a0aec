import { z } from 'zod';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { StrategyModule } from '../strategy/types.ts';
import { ConfigError, sortIssues, type ConfigIssue } from './errors.ts';
import { isSecretKey, secretKeyIssues } from './forbidden-keys.ts';
import { configFileSchema, SECTIONS } from './schema.ts';
import type { RunConfig, StrategyConfig, StrategyResolver } from './types.ts';
import { issuesFromZod, parseYamlSource, positionOf, type YamlSource } from './yaml-source.ts';

export interface LoadConfigOptions {
  readonly resolveStrategy: StrategyResolver;
}

/** Read, validate and resolve a run configuration file. Throws ConfigError listing every issue found. */
export async function loadConfig(path: string, options: LoadConfigOptions): Promise<RunConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [
      { file, path: '', message: code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(e)})` },
    ]);
  }
  return parseConfigText(text, file, options);
}

/** As loadConfig, from text already read; `file` names it in messages and anchors its relative paths. */
export async function parseConfigText(text: string, file: string, options: LoadConfigOptions): Promise<RunConfig> {
  const source = resolve(file);
  const baseDir = dirname(source);
  const src = parseYamlSource(text, source);
  if (src.value === null || typeof src.value !== 'object' || Array.isArray(src.value)) {
    const what = src.value === null || src.value === undefined ? 'the file is empty' : 'the file is not a mapping';
    throw new ConfigError(source, [
      {
        file: source,
        ...positionOf(src, []),
        path: '',
        message: `${what}: expected the sections ${SECTIONS.join(', ')}`,
      },
    ]);
  }

  const issues: ConfigIssue[] = secretKeyIssues(src);
  const parsed = configFileSchema({ baseDir }).safeParse(src.value);
  if (!parsed.success)
    issues.push(...issuesFromZod(src, parsed.error.issues, { skipKey: isSecretKey, rootKeys: SECTIONS }));
  // Strategies are checked from the raw value, so their ids, modules and params are reported
  // together with the rest of the file even when another section is invalid.
  const strategies = await checkStrategies(src, baseDir, options.resolveStrategy, issues);

  if (issues.length > 0 || !parsed.success) throw new ConfigError(source, sortIssues(issues));
  const f = parsed.data;
  return {
    source,
    baseDir,
    ...(f.venue ? { venue: f.venue } : {}),
    ...(f.paper ? { paper: f.paper } : {}),
    strategies: f.strategies.map((s, i): StrategyConfig => {
      const r = strategies[i]!;
      return {
        id: s.id,
        moduleRef: s.module,
        module: r.module,
        params: r.params,
        interest: s.interest,
        live: s.live,
        throttleMs: s.throttleMs,
        enabled: s.enabled,
      };
    }),
    risk: f.risk,
    logging: f.logging,
    recording: f.recording,
    metrics: f.metrics,
    backtest: f.backtest,
  };
}

interface ResolvedStrategy {
  readonly module: StrategyModule;
  readonly params: unknown;
}

/**
 * Unique ids, resolvable modules and params valid under each module's own schema. Returns
 * one slot per raw entry (undefined where the entry could not be resolved); issues go to `issues`.
 */
async function checkStrategies(
  src: YamlSource,
  baseDir: string,
  resolveStrategy: StrategyResolver,
  issues: ConfigIssue[],
): Promise<(ResolvedStrategy | undefined)[]> {
  const raw = (src.value as Record<string, unknown>)['strategies'];
  if (!Array.isArray(raw)) return [];
  const firstIndexOfId = new Map<string, number>();
  const out: (ResolvedStrategy | undefined)[] = [];
  for (const [i, entry] of raw.entries()) {
    out.push(undefined);
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;

    const id = e['id'];
    if (typeof id === 'string') {
      const first = firstIndexOfId.get(id);
      if (first !== undefined) {
        const firstLine = positionOf(src, ['strategies', first, 'id']).line;
        issues.push(
          at(
            src,
            ['strategies', i, 'id'],
            `duplicate strategy id "${id}" (first used by strategies.${first}, line ${firstLine})`,
          ),
        );
      } else firstIndexOfId.set(id, i);
    }

    const ref = e['module'];
    if (typeof ref !== 'string' || ref.trim() === '') continue;
    let module: StrategyModule;
    try {
      module = await resolveStrategy(ref.trim(), baseDir);
    } catch (err) {
      issues.push(at(src, ['strategies', i, 'module'], err instanceof Error ? err.message : String(err)));
      continue;
    }

    const rawParams = e['params'] ?? {};
    // A non-mapping is already reported by the file schema; the module's schema would only repeat it.
    if (typeof rawParams !== 'object' || Array.isArray(rawParams)) continue;
    // A module's object schema may let unknown keys through; a misspelt parameter must not
    // fall back to its default unnoticed, so every object schema is held strict here.
    const object = module.params instanceof z.ZodObject ? module.params : null;
    const result = (object?.strict() ?? module.params).safeParse(rawParams);
    if (!result.success) {
      const prefix = ['strategies', i, 'params'];
      for (const issue of result.error.issues) {
        // An unknown key is told the keys of the mapping it sits in: the params, or a nested one.
        const known = issue.code === 'unrecognized_keys' ? keysAt(object, issue.path) : [];
        const hint =
          known.length > 0
            ? `${issue.path.length === 0 ? 'params' : `${issue.path.join('.')} keys`} are ${known.join(', ')}`
            : 'params';
        for (const x of issuesFromZod(src, [issue], { prefix, skipKey: isSecretKey }))
          issues.push({ ...x, message: `${x.message} (${module.name} ${hint})` });
      }
      continue;
    }
    out[i] = { module, params: result.data };
  }
  return out;
}

/** The keys of the object schema at `path` inside `schema` (through defaults and optionals), or none. */
function keysAt(schema: z.ZodObject | null, path: readonly PropertyKey[]): string[] {
  let s: z.ZodType | null = schema;
  for (const key of path) {
    const obj = unwrapObject(s);
    s = obj && typeof key === 'string' ? ((obj.shape as Record<string, z.ZodType>)[key] ?? null) : null;
  }
  const obj = unwrapObject(s);
  return obj ? Object.keys(obj.shape) : [];
}

function unwrapObject(s: z.ZodType | null): z.ZodObject | null {
  for (let depth = 0; s && depth < 8; depth++) {
    if (s instanceof z.ZodObject) return s;
    const inner = (s as { unwrap?: () => z.ZodType }).unwrap;
    s = typeof inner === 'function' ? inner.call(s) : null;
  }
  return null;
}

function at(src: YamlSource, path: (string | number)[], message: string): ConfigIssue {
  return { file: src.file, ...positionOf(src, path), path: path.join('.'), message };
}
