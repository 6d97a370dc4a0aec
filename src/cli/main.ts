import { Command } from 'commander';
import { registerAccount } from './account.ts';
import { registerBacktest } from './backtest.ts';
import { registerDemo } from './demo.ts';
import { registerRecord } from './record.ts';
import { registerSim } from './sim.ts';
import { registerStatus } from './status.ts';
import { registerTape } from './tape.ts';
import { registerTrade } from './trade.ts';

const program = new Command();
program
  .name('linesmith')
  .description('Market making on a peer-to-peer sports betting exchange: engine replica, simulator, client, runtime, backtests.')
  .version('0.1.0')
  .showHelpAfterError();

registerDemo(program);
registerSim(program);
registerAccount(program);
registerTrade(program);
registerRecord(program);
registerBacktest(program);
registerTape(program);
registerStatus(program);

await program.parseAsync(process.argv);
