import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isModulePath } from '../loader/module-path.mjs';
import type { StrategyModule } from '../strategy/types.ts';
import type { StrategyResolver } from './types.ts';
import { StrategyModuleError } from './errors.ts';

export { isModulePath };

/** Duck-typed: a module loaded from a file cannot be checked with instanceof. */
export function isStrategyModule(x: unknown): x is StrategyModule {
  if (x === null || typeof x !== 'object') return false;
  const m = x as Record<string, unknown>;
  const params = m['params'] as { safeParse?: unknown } | null | undefined;
  return (
    typeof m['name'] === 'string' &&
    typeof m['description'] === 'string' &&
    typeof m['quote'] === 'function' &&
    params !== null &&
    typeof params === 'object' &&
    typeof params.safeParse === 'function'
  );
}

export type StrategyRegistry = Readonly<Record<string, StrategyModule>> | ReadonlyMap<string, StrategyModule>;

/**
 * Names from `registry` (a record, or a Map such as strategies/index.ts exports); paths
 * imported (relative to the config file), taking the default export or else an export
 * named `strategy`.
 */
export function defaultStrategyResolver(registry: StrategyRegistry): StrategyResolver {
  // hasOwn: `constructor` or `toString` must not resolve to Object.prototype's members.
  const lookup = (name: string): StrategyModule | undefined =>
    registry instanceof Map
      ? registry.get(name)
      : Object.hasOwn(registry, name)
        ? (registry as Readonly<Record<string, StrategyModule>>)[name]
        : undefined;
  const names = (): string[] => (registry instanceof Map ? [...registry.keys()] : Object.keys(registry)).sort();
  return async (ref, baseDir) => {
    if (!isModulePath(ref)) {
      const found = lookup(ref);
      if (found) return found;
      const known = names();
      throw new StrategyModuleError(
        `unknown strategy "${ref}"; ` +
          `${known.length > 0 ? `known: ${known.join(', ')}` : 'none are registered'}. A strategy in a file is ` +
          `named by its path, e.g. ./${ref}${/\.[cm]?[jt]s$/.test(ref) ? '' : '.ts'}`,
      );
    }
    const file = resolve(baseDir, ref);
    // Checked up front: loaders (node, tsx, vitest) word a missing file differently.
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) throw new StrategyModuleError(`strategy module not found: ${file}`);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (e) {
      throw new StrategyModuleError(
        `cannot import strategy module ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      );
    }
    const found = [mod['default'], mod['strategy']].find(isStrategyModule);
    if (!found) {
      throw new StrategyModuleError(
        `${file} exports no strategy: expected a default export or an export named "strategy" with name, description, params (a zod schema) and quote()`,
      );
    }
    return found;
  };
}
