/**
 * Exit codes of every linesmith command: the one place they are defined. docs/exit-codes.md
 * lists them for users, and test/cli/exit-codes.test.ts drives each command's usage error.
 */
export const EXIT = {
  /** The command did what it was asked. */
  ok: 0,
  /**
   * A runtime failure: the command was well formed but could not do its work (a feed path or
   * scenario file that cannot be read, an unreachable exchange, orders left open at the end,
   * a backtest whose strategy failed on every evaluation or, under --strict, at all).
   */
  failure: 1,
  /** A usage error: an unknown or malformed option, a missing or invalid config, a bad argument. */
  usage: 2,
  /** `backtest --decisions`: the replay decided otherwise than the recorded session. */
  parity: 3,
  /** A second Ctrl-C (SIGINT) or SIGTERM while stopping: exited without waiting for the clean shutdown. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** `linesmith <command>: <message>` on stderr and the usage exit code; returns nothing so an action can `return usageError(...)`. */
export function usageError(command: string, message: string): void {
  process.stderr.write(`linesmith ${command}: ${message}\n`);
  process.exitCode = EXIT.usage;
}

/** `linesmith <command>: <message>` on stderr and the failure exit code. */
export function runtimeFailure(command: string, message: string): void {
  process.stderr.write(`linesmith ${command}: ${message}\n`);
  process.exitCode = EXIT.failure;
}
