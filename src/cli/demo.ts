import type { Command } from 'commander';
import { runEngineDemo } from '../demo/engine-demo.ts';
import { runMarketTour } from '../demo/market-tour.ts';

function wholeNumber(program: Command, name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) program.error(`${name} takes a number ≥ ${min}, got ${value}`);
  return n;
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'Start the simulator exchange with its synthetic market and tour it as a client: REST, price feed, user feed, a fill',
    )
    .option('--seed <n>', 'random seed of the market', '7')
    .option('--seconds <n>', 'how long to run (wall clock)', '30')
    .option('--speed <x>', 'exchange time runs this many times faster than wall time', '120')
    .action(async (opts: { seed: string; seconds: string; speed: string }) => {
      const tty = process.stdout.isTTY === true;
      let lastStatus = 0;
      await runMarketTour({
        seed: wholeNumber(program, '--seed', opts.seed, 0),
        seconds: wholeNumber(program, '--seconds', opts.seconds, 1),
        speed: wholeNumber(program, '--speed', opts.speed, 1),
        out: (line) => console.log(line),
        status: (line) => {
          if (tty) process.stdout.write(`\r\x1b[2K${line}`);
          else if (line && Date.now() - lastStatus >= 5000) {
            lastStatus = Date.now();
            console.log(line);
          }
        },
      });
    });

  program
    .command('engine-demo')
    .description('Run a short, deterministic market directly on the engine replica and print what happened')
    .option('--seed <n>', 'random seed', '7')
    .option('--orders <n>', 'orders to place', '20000')
    .action((opts: { seed: string; orders: string }) => {
      const seed = wholeNumber(program, '--seed', opts.seed, 0);
      const orders = wholeNumber(program, '--orders', opts.orders, 1);
      for (const line of runEngineDemo({ seed, orders })) console.log(line);
    });
}
