import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../../src/sim/market/default-scenario.ts';
import {
  loadScenarioFile,
  parseScenario,
  parseScenarioYaml,
  ScenarioError,
  type Scenario,
} from '../../src/sim/market/scenario.ts';

const DEFAULT_FILE = fileURLToPath(new URL('../../config/scenarios/default.yaml', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linesmith-scenario-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function failure(file: string): Promise<ScenarioError> {
  try {
    await loadScenarioFile(file);
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  throw new Error(`${file} was accepted`);
}

describe('scenario', () => {
  it('the built-in default is valid and parses to itself', () => {
    const parsed: Scenario = parseScenario(DEFAULT_SCENARIO);
    expect(parsed).toEqual(DEFAULT_SCENARIO);
    expect(parsed.leagues.reduce((n, l) => n + l.games, 0)).toBeGreaterThanOrEqual(24);
    expect(new Set(parsed.leagues.map((l) => l.sport)).has('soccer')).toBe(true);
  });

  it('config/scenarios/default.yaml is the built-in default', async () => {
    expect(await loadScenarioFile(DEFAULT_FILE)).toEqual(DEFAULT_SCENARIO);
  });

  it('a partial scenario takes the defaults for everything it leaves out', () => {
    const s = parseScenarioYaml(
      'name: tiny\npace:\n  tickSeconds: 2\nleagues:\n  - league: NBA\n    sport: basketball\n    games: 1\n',
    );
    expect(s.name).toBe('tiny');
    expect(s.pace).toEqual({ ...DEFAULT_SCENARIO.pace, tickSeconds: 2 });
    expect(s.population).toEqual(DEFAULT_SCENARIO.population);
    expect(s.model).toEqual(DEFAULT_SCENARIO.model);
    expect(s.leagues).toEqual([{ league: 'NBA', sport: 'basketball', games: 1 }]);
    expect(parseScenarioYaml('')).toEqual({ ...DEFAULT_SCENARIO, name: 'custom', description: undefined });
  });

  it('a bad value names the file, line, column and field', async () => {
    const file = await write(
      'bad-value.yaml',
      [
        'name: bad',
        'pace:',
        '  tickSeconds: fast',
        'leagues:',
        '  - league: NBA',
        '    sport: basketball',
        '    games: 2',
        '',
      ].join('\n'),
    );
    const e = await failure(file);
    expect(e.source).toBe(file);
    expect(e.line).toBe(3);
    expect(e.col).toBe(16);
    expect(e.field).toBe('pace.tickSeconds');
    expect(e.message).toContain(`${file}:3:16: pace.tickSeconds:`);
    expect(e.message).toMatch(/expected number/);
  });

  it('reports every issue: unknown keys, bad enums, missing fields, ranges', async () => {
    const file = await write(
      'many.yaml',
      [
        'name: many', //                       1
        'pace:', //                            2
        '  makerRefreshSecond: 3', //          3  typo
        'population:', //                      4
        '  makers:', //                        5
        '    minSize: 500', //                 6
        '    maxSize: 100', //                 7
        'leagues:', //                         8
        '  - league: NBA', //                  9
        '    sport: cricket', //               10
        '    games: 2', //                     11
        '  - league: EPL', //                  12
        '    games: 0', //                     13
        '',
      ].join('\n'),
    );
    const e = await failure(file);
    const byField = new Map(e.issues.map((i) => [i.field, i]));
    expect(byField.get('pace.makerRefreshSecond')).toMatchObject({
      line: 3,
      col: 3,
      message: 'unknown key "makerRefreshSecond"',
    });
    expect(byField.get('leagues.0.sport')).toMatchObject({ line: 10, col: 12 });
    expect(byField.get('leagues.0.sport')!.message).toMatch(/basketball/);
    expect(byField.get('leagues.1.sport')).toMatchObject({ line: 12 });
    expect(byField.get('leagues.1.sport')!.message).toMatch(/required field is missing/);
    expect(byField.get('leagues.1.games')).toMatchObject({ line: 13, col: 12 });
    // Refinements run only on a structurally valid scenario; check the size range on its own.
    expect(() =>
      parseScenarioYaml('population:\n  makers:\n    minSize: 500\n    maxSize: 100\n', 'sizes.yaml'),
    ).toThrow(/sizes\.yaml:3:14: population\.makers\.minSize: minSize 500 is above maxSize 100/);
  });

  it('YAML syntax errors and duplicate keys carry a line, and a missing file says so', async () => {
    const syntax = await failure(await write('syntax.yaml', 'name: x\npace:\n  tickSeconds: [1, 2\nleagues: []\n'));
    expect(syntax.line).toBeGreaterThanOrEqual(3);
    expect(syntax.message).toMatch(/syntax\.yaml:\d+:\d+: invalid YAML/);
    const dup = await failure(await write('dup.yaml', 'name: a\nname: b\n'));
    expect(dup.line).toBe(2);
    expect(dup.message).toMatch(/unique/i);
    const missing = await failure(join(dir, 'nope.yaml'));
    expect(missing.message).toBe(`${join(dir, 'nope.yaml')}: file not found`);
  });

  it('rejects duplicate leagues and objects without a source position', () => {
    expect(() =>
      parseScenario({
        leagues: [
          { league: 'NBA', sport: 'basketball', games: 1 },
          { league: 'nba', sport: 'basketball', games: 1 },
        ],
      }),
    ).toThrow(/scenario: leagues\.1\.league: league nba is listed twice/);
  });
});
