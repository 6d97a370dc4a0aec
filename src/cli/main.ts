import { Command, type CommanderError } from 'commander';
import { EXIT } from './exit-codes.ts';
import { registerAccount } from './account.ts';
import { registerBacktest } from './backtest.ts';
import { registerDemo } from './demo.ts';
import { registerInit } from './init.ts';
import { addHelpExamples } from './help-examples.ts';
import { registerRecord } from './record.ts';
import { registerSim } from './sim.ts';
import { registerStatus } from './status.ts';
import { registerTape } from './tape.ts';
import { registerTrade } from './trade.ts';
import { registerWorker } from './worker.ts';

const program = new Command();
program
  .name('linesmith')
  .description(
    'Market making on a peer-to-peer sports betting exchange: engine replica, simulator, client, runtime, backtests.',
  )
  .version('0.1.0')
  // A hint, not the whole help: the error is the line to read.
  .showHelpAfterError('(add --help for the options)')
  // Every command's flag errors exit with the usage code (commander's own default is 1);
  // --help and --version exit 0. Set before the commands are added, which inherit it.
  .exitOverride((err: CommanderError) => {
    const shown =
      err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version';
    process.exit(shown ? err.exitCode : EXIT.usage);
  });

registerDemo(program);
registerSim(program);
registerAccount(program);
registerTrade(program);
registerRecord(program);
registerBacktest(program);
registerTape(program);
registerStatus(program);
registerWorker(program);
registerInit(program);
addHelpExamples(program);

await program.parseAsync(process.argv);
