import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `linesmith <args>` as a user runs it (bin/linesmith.js, from the repository root): its exit code and output. */
export async function linesmith(
  args: readonly string[],
  options: { timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<CliResult> {
  try {
    const r = await run(process.execPath, ['bin/linesmith.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', ...options.env },
      timeout: options.timeoutMs ?? 60_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
