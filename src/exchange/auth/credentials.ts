import { readFile, stat } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CredentialsError } from '../errors.ts';

/** The account login: the only credential the exchange issues (exchange-api §5.1). */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** Loaded only when a login is needed, so the password is held no longer than that. */
export type CredentialsProvider = () => Promise<Credentials>;

export const ENV_USERNAME = 'LINESMITH_USERNAME';
export const ENV_PASSWORD = 'LINESMITH_PASSWORD';

/** From `LINESMITH_USERNAME` and `LINESMITH_PASSWORD`. */
export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): CredentialsProvider {
  return async () => {
    const username = env[ENV_USERNAME];
    const password = env[ENV_PASSWORD];
    if (!username || !password)
      throw new CredentialsError(
        `credentials missing: set ${ENV_USERNAME} and ${ENV_PASSWORD}, or name a credentials file`,
      );
    return { username, password };
  };
}

const CredentialsFile = z.object({ username: z.string().min(1), password: z.string().min(1) });

/**
 * From a YAML or JSON file `{username, password}`. The file should be private to its owner;
 * a readable-by-others file still works but `onWarning` hears about it.
 */
export function credentialsFromFile(path: string, onWarning?: (message: string) => void): CredentialsProvider {
  return async () => {
    let text: string;
    try {
      const st = await stat(path);
      if ((st.mode & 0o077) !== 0)
        onWarning?.(
          `credentials file ${path} is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`,
        );
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new CredentialsError(
        `cannot read credentials file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
    let doc: unknown;
    try {
      doc = parseYaml(text);
    } catch {
      // Never echo the parser's message: it quotes the file, password included.
      throw new CredentialsError(`credentials file ${path} is not valid YAML or JSON`);
    }
    const parsed = CredentialsFile.safeParse(doc);
    if (!parsed.success)
      throw new CredentialsError(`credentials file ${path} must hold non-empty "username" and "password"`);
    return parsed.data;
  };
}

/** The file when one is named, else the environment. */
export function resolveCredentials(options: {
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
  onWarning?: (m: string) => void;
}): CredentialsProvider {
  return options.file ? credentialsFromFile(options.file, options.onWarning) : credentialsFromEnv(options.env);
}
