// Backtests run in a process whose young generation is larger than Node's default. A long
// replay keeps a large heap of state it changes all the time (open orders, books, the
// report's series), and with the default 16 MB semi-spaces the young collections copy and
// promote much of what lives only seconds of market time: over the 1.7M-event recording a
// fixed-spread replay spent a fifth of its CPU collecting and ran at 15.2k events per CPU
// second, against 19.4k with 32 MB semi-spaces (21 MB more resident at most) and 21.3k with
// 64 MB (85 MB more). V8 reads the size only when the process starts, so the launcher starts
// the command again in a child process that has it; a process already started with a size
// of its own (on the command line or in NODE_OPTIONS) runs the command itself.
//
// The child runs the CLI compiled ahead (./compiled-entry.mjs) rather than through tsx,
// which saves the replay some 48 MB of resident memory, when every strategy of the config is
// a built-in one. A strategy in the user's own file needs the TypeScript loader and the
// hooks that give it `linesmith/strategy`; such a run, or one whose config cannot be read
// here (the child then says why), starts the CLI from source as before.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compiledEntry } from './compiled-entry.mjs';
import { namesBuiltInStrategiesOnly } from './module-path.mjs';

/** Semi-space size of a replay's process, MB (a worker thread's young generation is three of them). */
export const REPLAY_SEMI_SPACE_MB = 32;
const FLAG = '--max-semi-space-size';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The commands that replay recordings in this process. */
const REPLAYING = new Set(['backtest']);

/** Whether this process was started with a semi-space size of its own. */
function hasOwnSize() {
  return process.execArgv.some((a) => a.startsWith(FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(FLAG);
}

/**
 * The value of `--config` in the command's arguments, or undefined.
 * @param {readonly string[]} args
 */
function configArgument(args) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--config') return args[i + 1];
    if (a.startsWith('--config=')) return a.slice('--config='.length);
  }
  return undefined;
}

/**
 * Whether the config the arguments name can be read here and names built-in strategies only.
 * @param {readonly string[]} args the command's arguments
 */
export function configNamesBuiltInStrategiesOnly(args) {
  const file = configArgument(args);
  if (file === undefined) return false;
  let text;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch {
    return false;
  }
  return namesBuiltInStrategiesOnly(text);
}

/**
 * The script and its arguments the child runs: the compiled CLI when it may, else the launcher again.
 * @param {readonly string[]} argv
 */
async function childScript(argv) {
  const compiled = configNamesBuiltInStrategiesOnly(argv.slice(3)) ? await compiledEntry('src/cli/main.ts') : null;
  return compiled === null ? argv.slice(1) : [compiled, ...argv.slice(2)];
}

/**
 * Runs a replaying command again in a child process with the replay's young generation,
 * passing its exit status on (and any signal this process gets to it); false when this
 * process runs the command itself.
 */
export async function runReplayInSizedProcess(argv = process.argv) {
  if (!REPLAYING.has(argv[2] ?? '') || hasOwnSize()) return false;
  const child = spawn(
    process.execPath,
    [...process.execArgv, `${FLAG}=${REPLAY_SEMI_SPACE_MB}`, ...(await childScript(argv))],
    {
      stdio: 'inherit',
    },
  );
  // A Ctrl-C reaches both processes (they share the terminal's process group), a kill this one only.
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const s of FORWARDED) process.on(s, forward);
  const [code, signal] = await once(child, 'exit');
  for (const s of FORWARDED) process.off(s, forward);
  // Ended by a signal: this process ends the same way, as the command would have.
  if (signal !== null) process.kill(process.pid, signal);
  else process.exitCode = code ?? 1;
  return true;
}
