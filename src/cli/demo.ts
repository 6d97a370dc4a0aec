import type { Command } from 'commander';
import { runEngineDemo } from '../demo/engine-demo.ts';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('Run a short, deterministic market on the engine replica and print what happened')
    .option('--seed <n>', 'random seed', '7')
    .option('--orders <n>', 'orders to place', '20000')
    .action((opts: { seed: string; orders: string }) => {
      const seed = Number.parseInt(opts.seed, 10);
      const orders = Number.parseInt(opts.orders, 10);
      if (!Number.isInteger(seed) || !Number.isInteger(orders) || orders <= 0) {
        program.error('--seed and --orders take whole numbers (orders > 0)');
      }
      for (const line of runEngineDemo({ seed, orders })) console.log(line);
    });
}
