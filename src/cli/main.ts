import { Command, type CommanderError } from 'commander';
import { commandModulesFor } from './commands.ts';
import { EXIT } from './exit-codes.ts';
import { addHelpExamples } from './help-examples.ts';

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

for (const m of commandModulesFor(process.argv.slice(2))) (await m.load())(program);
addHelpExamples(program);

await program.parseAsync(process.argv);
