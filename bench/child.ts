import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPLAY_SEMI_SPACE_MB } from '../src/loader/replay-process.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

/** What `linesmith backtest`'s process is started with (src/loader/replay-process.mjs): every replay bench's child has it too. */
export const REPLAY_NODE_ARGS: readonly string[] = [`--max-semi-space-size=${REPLAY_SEMI_SPACE_MB}`];

/**
 * Run a benchmark script in a fresh Node process (tsx loaded, `nodeArgs` before it) and
 * read its result: the last line of its stdout, as JSON. Its stderr (progress) is passed
 * through. Nothing measured in this process before it counts against it.
 */
export async function runJsonChild<T>(
  name: string,
  script: string,
  args: readonly string[] = [],
  nodeArgs: readonly string[] = [],
): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  if (code !== 0) throw new Error(`${name} benchmark exited with ${code ?? 'a signal'}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
}
