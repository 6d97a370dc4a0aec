import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, commandModulesFor } from '../../src/cli/commands.ts';

describe('the commands a run loads', () => {
  it('loads the module of the command named, alone', () => {
    expect(commandModulesFor(['backtest', '--config', 'x.yaml']).map((m) => m.names)).toEqual([['backtest']]);
    expect(commandModulesFor(['engine-demo']).map((m) => m.names)).toEqual([['demo', 'engine-demo']]);
  });

  it('loads every module for the help, an option first, or an unknown command', () => {
    for (const args of [[], ['--help'], ['help', 'backtest'], ['-V'], ['bogus']])
      expect(commandModulesFor(args)).toBe(COMMAND_MODULES);
  });

  it('names every command each module registers, and only those', async () => {
    for (const m of COMMAND_MODULES) {
      const program = new Command();
      (await m.load())(program);
      expect(program.commands.map((c) => c.name())).toEqual(m.names);
    }
  });
});
