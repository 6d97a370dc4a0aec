import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.ts';
import { linesmith, ROOT } from '../support/cli.ts';

const CONFIG = 'test/backtest/golden/fixed-spread.yaml';

/** A config whose paper section names a scenario file that is not there. */
async function missingScenarioConfig(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ls-exit-'));
  const file = join(dir, 'no-scenario.yaml');
  await writeFile(
    file,
    'strategies:\n  - id: a\n    module: fixed-spread\nrisk:\n  maxGameLiability: 100\n' +
      '  maxTotalLiability: 1000\n  maxOrderSize: 10\n  maxOrdersPerGame: 4\npaper:\n  seed: 1\n' +
      '  scenario: ./not-there.yaml\n',
  );
  return file;
}

/**
 * Every command's usage errors exit 2 with a one-line message naming the command's problem,
 * never the whole help: flags commander refuses, values a command refuses, and files named on
 * the command line (or by the config) that are not there.
 */
describe('exit codes: usage errors exit 2 on every command', () => {
  const cases: [string, () => Promise<string[]>, RegExp][] = [
    ['unknown command', async () => ['trade'], /unknown command 'trade'/],
    ['demo: bad --seconds', async () => ['demo', '--seconds', 'x'], /--seconds takes a number/],
    ['engine-demo: bad --orders', async () => ['engine-demo', '--orders', '0'], /--orders takes a number/],
    ['sim: unknown flag', async () => ['sim', '--bogus'], /unknown option '--bogus'/],
    ['sim: bad --port', async () => ['sim', '--port', 'x'], /linesmith sim: --port must be a whole number/],
    [
      'sim: missing scenario',
      async () => ['sim', '--port', '0', '--scenario', '/no/such/scenario.yaml'],
      /\/no\/such\/scenario\.yaml/,
    ],
    ['account: missing --base-url', async () => ['account'], /required option '--base-url <url>' not specified/],
    [
      'account: bad --log-level',
      async () => ['account', '--base-url', 'http://127.0.0.1:1', '--log-level', 'loud'],
      /linesmith account: --log-level must be one of/,
    ],
    ['run: missing config', async () => ['run', '--config', '/no/such/config.yaml'], /\/no\/such\/config\.yaml/],
    [
      'run: --duration 0',
      async () => ['run', '--config', CONFIG, '--duration', '0'],
      /linesmith run: --duration must be longer than 0/,
    ],
    [
      'paper: --duration 0',
      async () => ['paper', '--config', CONFIG, '--duration', '0s'],
      /linesmith paper: --duration must be longer than 0/,
    ],
    [
      'paper: missing scenario',
      async () => ['paper', '--config', await missingScenarioConfig(), '--duration', '5s'],
      /linesmith paper: paper\.scenario: .*not-there\.yaml/,
    ],
    [
      'record: --duration 0',
      async () => ['record', '--config', CONFIG, '--paper', '--duration', '0'],
      /linesmith record: --duration must be longer than 0/,
    ],
    [
      'record: bad --max-file-size',
      async () => ['record', '--config', CONFIG, '--paper', '--max-file-size', 'huge'],
      /linesmith record: --max-file-size/,
    ],
    [
      'backtest: missing --feed',
      async () => ['backtest', '--config', CONFIG],
      /required option '--feed <path\.\.\.>' not specified/,
    ],
    [
      'backtest: --feed path not there',
      async () => ['backtest', '--config', CONFIG, '--feed', '/no/such/recording'],
      /linesmith backtest: cannot read the recording \/no\/such\/recording/,
    ],
    [
      'backtest: bad --seed',
      async () => ['backtest', '--config', CONFIG, '--feed', 'backtest/data/paper-seed7', '--seed', 'x'],
      /linesmith backtest: --seed must be a whole number/,
    ],
    [
      'status: bad --timeout',
      async () => ['status', '--timeout', 'soon'],
      /linesmith status: --timeout must be a whole number/,
    ],
  ];
  it.each(cases)(
    '%s',
    async (_name, args, message) => {
      const r = await linesmith(await args());
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toMatch(message);
      // A hint at --help, not the whole help: the error is the line to read.
      expect(r.stderr).not.toMatch(/^Usage:/m);
      expect(r.stdout).toBe('');
    },
    60_000,
  );

  it('--help and --version exit 0', async () => {
    expect((await linesmith(['sim', '--help'])).code).toBe(EXIT.ok);
    expect((await linesmith(['--version'])).code).toBe(EXIT.ok);
  });

  it('docs/exit-codes.md lists every code the CLI defines', async () => {
    const doc = await readFile(join(ROOT, 'docs/exit-codes.md'), 'utf8');
    for (const [name, code] of Object.entries(EXIT)) expect(doc, name).toMatch(new RegExp(`^\\| ${code} +\\|`, 'm'));
  });
});
