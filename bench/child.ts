import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledEntry } from '../src/loader/compiled-entry.mjs';
import { REPLAY_SEMI_SPACE_MB } from '../src/loader/replay-process.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

/** What `linesmith backtest`'s process is started with (src/loader/replay-process.mjs): every replay bench's child has it too. */
export const REPLAY_NODE_ARGS: readonly string[] = [`--max-semi-space-size=${REPLAY_SEMI_SPACE_MB}`];

/** Names the bench script a compiled child runs: its `import.meta.url` is the script's, its argv[1] the compiled file. */
const ENTRY_ENV = 'LINESMITH_BENCH_ENTRY';

/** Whether the module at `moduleUrl` is the script this process was started to run, from source or compiled. */
export function runsAsScript(moduleUrl: string): boolean {
  const file = fileURLToPath(moduleUrl);
  return (process.argv[1] !== undefined && resolve(process.argv[1]) === file) || process.env[ENTRY_ENV] === file;
}

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
  return runChild<T>(name, [...nodeArgs, '--import', 'tsx', script, ...args], {});
}

/**
 * A replay benchmark script in a fresh process started as `linesmith backtest`'s is: the
 * script compiled ahead (src/loader/compiled-entry.mjs) rather than loaded through tsx, and
 * the replay's young generation. Its result is read as `runJsonChild` reads it.
 */
export async function runReplayJsonChild<T>(name: string, script: string, args: readonly string[] = []): Promise<T> {
  const compiled = await compiledEntry(script);
  if (compiled === null) throw new Error(`${name} benchmark: ${script} could not be compiled`);
  return runChild<T>(name, [...REPLAY_NODE_ARGS, compiled, ...args], { [ENTRY_ENV]: script });
}

async function runChild<T>(name: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<T> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  if (code !== 0) throw new Error(`${name} benchmark exited with ${code ?? 'a signal'}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
}
