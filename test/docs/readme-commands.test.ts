import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesmith, ROOT } from '../support/cli.ts';
import { startTestSim, type TestSim } from '../support/sim.ts';

/** The lines of every ```sh block of a Markdown file, comments and blank lines dropped. */
export function shellCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of m[1]!.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line !== '' && !line.startsWith('#')) out.push(line);
    }
  }
  return out;
}

/** `a "b c" d` → ['a', 'b c', 'd'] (the README's commands use no other quoting). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

const README = join(ROOT, 'README.md');

describe('every command README shows runs', { timeout: 300_000 }, () => {
  let sim: TestSim;
  let dir: string;
  let user: { username: string; password: string };
  let liveConfig: string;
  beforeAll(async () => {
    sim = await startTestSim();
    sim.game();
    dir = await mkdtemp(join(tmpdir(), 'ls-readme-'));
    user = await sim.user('readme-trader', { balance: 5_000 });
    liveConfig = join(dir, 'my-live.yaml');
    await writeFile(
      liveConfig,
      `venue:\n  baseUrl: ${sim.url}\nstrategies:\n  - id: quotes\n    module: fixed-spread\n` +
        `    params: {}\nrisk:\n  maxGameLiability: 100\n  maxTotalLiability: 500\n` +
        `  maxOrderSize: 20\n  maxOrdersPerGame: 10\n`,
    );
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('README shows the two commands and only commands that exist', async () => {
    const lines = shellCommands(await readFile(README, 'utf8'));
    expect(lines).toContain('npm ci && npm start');
    expect(lines).toContain('npm ci && npm test');
    const scripts = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const l of lines.filter((x) => x.startsWith('npm '))) {
      for (const part of l.split('&&').map((p) => p.trim())) {
        const [, verb, name] = part.match(/^npm (ci|start|test|run (\S+))/) ?? [];
        expect(verb, part).toBeDefined();
        if (verb === 'start' || verb === 'test') expect(scripts[verb], part).toBeDefined();
        if (name !== undefined) expect(scripts[name], part).toBeDefined();
      }
    }
  });

  it('npm start runs the paper session it names', async () => {
    const scripts = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const args = words(scripts.start!)
      .slice(2)
      .map((a) => (/^\d+s$/.test(a) ? '3s' : a));
    const r = await linesmith(args, { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/open orders left\s*:?\s*0|0 open orders/i);
  });

  it('each `npx linesmith` command of README exits 0', async () => {
    const lines = shellCommands(await readFile(README, 'utf8')).filter((l) => l.startsWith('npx linesmith '));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const env = { LINESMITH_USERNAME: user.username, LINESMITH_PASSWORD: user.password };
    for (const line of lines) {
      let args = words(line).slice(2);
      // Short runs, private output folders, the simulator standing in for the exchange.
      args = args.map((a) =>
        a
          .replace(/^\/tmp\//, `${dir}/`)
          .replace('https://api.exchange.example', sim.url)
          .replace(/^my-live\.yaml$/, liveConfig),
      );
      const d = args.indexOf('--duration');
      if (d >= 0 && args[0] !== 'record') args[d + 1] = '3s';
      if ((args[0] === 'run' || args[0] === 'paper') && d < 0) args.push('--duration', '3s');
      const r = await linesmith(args, { timeoutMs: 180_000, env });
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
    }
  });
});
