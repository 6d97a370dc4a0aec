import type { Command } from 'commander';

/**
 * The examples each command's `--help` ends with. Every one runs as written from a clone's
 * root (test/cli/help-examples.test.ts runs them all, with shorter durations and its own
 * output directories), so what a user copies from the help works.
 */
export const HELP_EXAMPLES: Readonly<Record<string, readonly { readonly command: string; readonly what: string }[]>> = {
  'engine-demo': [
    {
      command: 'linesmith engine-demo --orders 2000',
      what: 'two thousand orders on the engine replica, and what came of them',
    },
  ],
  demo: [{ command: 'linesmith demo --seconds 20', what: 'a twenty-second tour of the simulator as a client sees it' }],
  paper: [
    {
      command: 'linesmith paper --config config/example.yaml --duration 60s',
      what: "a minute of paper trading on the simulator (an hour of its market at the example's speed)",
    },
  ],
  record: [
    {
      command:
        'linesmith record --config config/example.yaml --paper --virtual-time --duration 2h --out recordings/sample',
      what: 'two hours of the simulator, recorded as fast as it runs, with the games that finish in them settled',
    },
  ],
  backtest: [
    {
      command:
        'linesmith backtest --config config/example.yaml --feed backtest/data/paper-seed7 --report backtest-report',
      what: 'replay a sample recording and write report.html',
    },
    {
      command:
        'linesmith backtest --config config/example.yaml --feed backtest/data/paper-seed7 --report ' +
        'backtest-report --sweep strategies.spread-nba-nfl.params.margin=0.02,0.03',
      what: 'two variants of a parameter side by side (sweep.html compares them)',
    },
  ],
};

/** `Examples:` after the options of each command that has them. */
export function addHelpExamples(program: Command): void {
  for (const cmd of program.commands) {
    const examples = HELP_EXAMPLES[cmd.name()];
    if (!examples) continue;
    cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  # ${e.what}\n  $ ${e.command}`).join('\n')}`);
  }
}
