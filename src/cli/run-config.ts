import { builtInStrategyResolver } from '../app/strategy-registry.ts';
import { ConfigError } from '../config/errors.ts';
import { loadConfig } from '../config/load.ts';
import type { RunConfig } from '../config/types.ts';
import { EXIT } from './exit-codes.ts';

/**
 * The run configuration with the built-in strategies registered, or null after telling the
 * user what is wrong (file:line:col for config errors) and setting the usage exit code.
 */
export async function loadRunConfigOrReport(path: string): Promise<RunConfig | null> {
  try {
    return await loadConfig(path, { resolveStrategy: builtInStrategyResolver() });
  } catch (err) {
    process.stderr.write(
      `${err instanceof ConfigError ? err.message : `cannot load ${path}: ${(err as Error).message}`}\n`,
    );
    process.exitCode = EXIT.usage;
    return null;
  }
}
