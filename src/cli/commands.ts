import type { Command } from 'commander';

/** Adds a module's commands to the program. */
type Register = (program: Command) => void;

/**
 * The CLI's commands, by module, in the order `--help` lists them: the names each module
 * registers, and how to load it. A module is loaded only when needed: a run of one command
 * loads its module alone, not the code of every other command (the simulator, the live
 * client, the queue), which a long replay would otherwise carry in its heap and resident
 * set the whole run.
 */
export const COMMAND_MODULES: readonly { readonly names: readonly string[]; readonly load: () => Promise<Register> }[] =
  [
    { names: ['demo', 'engine-demo'], load: async () => (await import('./demo.ts')).registerDemo },
    { names: ['sim'], load: async () => (await import('./sim.ts')).registerSim },
    { names: ['account'], load: async () => (await import('./account.ts')).registerAccount },
    { names: ['run', 'paper'], load: async () => (await import('./trade.ts')).registerTrade },
    { names: ['record'], load: async () => (await import('./record.ts')).registerRecord },
    { names: ['backtest'], load: async () => (await import('./backtest.ts')).registerBacktest },
    { names: ['tape'], load: async () => (await import('./tape.ts')).registerTape },
    { names: ['status'], load: async () => (await import('./status.ts')).registerStatus },
    { names: ['worker'], load: async () => (await import('./worker.ts')).registerWorker },
    { names: ['init'], load: async () => (await import('./init.ts')).registerInit },
  ];

/**
 * The modules to load for these arguments (those after the program's name): the one that
 * registers the command named first, or every one (no command, an option first such as
 * `--help`, or a name no module registers: commander then lists them all, or says which
 * is unknown).
 */
export function commandModulesFor(args: readonly string[]): typeof COMMAND_MODULES {
  const first = args[0];
  const one = first === undefined ? undefined : COMMAND_MODULES.find((m) => m.names.includes(first));
  return one ? [one] : COMMAND_MODULES;
}
