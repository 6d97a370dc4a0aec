// Backtests run in a process whose young generation is larger than Node's default. A long
// replay keeps a large heap of state it changes all the time (open orders, books, the
// report's series), and with the default 16 MB semi-spaces the young collections copy and
// promote much of what lives only seconds of market time: over the 1.7M-event recording a
// fixed-spread replay spent a fifth of its CPU collecting and ran at 15.2k events per CPU
// second, against 19.4k with 32 MB semi-spaces (21 MB more resident at most) and 21.3k with
// 64 MB (85 MB more). V8 reads the size only when the process starts, so the launcher starts
// the command again in a child process that has it; a process already started with a size
// of its own (on the command line or in NODE_OPTIONS) runs the command itself.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

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
 * Runs a replaying command again in a child process with the replay's young generation,
 * passing its exit status on (and any signal this process gets to it); false when this
 * process runs the command itself.
 */
export async function runReplayInSizedProcess(argv = process.argv) {
  if (!REPLAYING.has(argv[2] ?? '') || hasOwnSize()) return false;
  const child = spawn(process.execPath, [...process.execArgv, `${FLAG}=${REPLAY_SEMI_SPACE_MB}`, ...argv.slice(1)], {
    stdio: 'inherit',
  });
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
