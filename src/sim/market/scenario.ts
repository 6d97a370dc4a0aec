import { readFile } from 'node:fs/promises';
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { SPORTS } from './fair-model.ts';
import { limitsSchema } from '../limit-settings.ts';
import { LinesmithError } from '../../shared/errors.ts';

/**
 * A synthetic-market scenario: which leagues and how many games, who trades, and how fast.
 * Every key but the leagues' own `league`, `sport` and `games` has a default (the built-in
 * scenario's value), so a scenario file names only what it changes. Unknown keys are errors,
 * so a typo never silently falls back to a default.
 */

const D = DEFAULT_SCENARIO;

const size = z.number().positive().max(1_000_000);

const leagueSchema = z.strictObject({
  /** League code as the exchange lists it (NBA, EPL, …). */
  league: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'league code: letters, digits, "-" and "_"'),
  sport: z.enum(SPORTS),
  /** Games kept on the schedule (pre-game or live) at once; each ended game is replaced. */
  games: z.int().min(1).max(1000),
  /** Start to final whistle, minutes; the sport's usual length when omitted. */
  durationMinutes: z
    .number()
    .positive()
    .max(24 * 60)
    .optional(),
  /** Team names; generated ("NBA Team 1", …) when omitted. */
  teams: z.array(z.string().trim().min(1)).min(2).optional(),
});

const paceSchema = z
  .strictObject({
    /** Model heartbeat: fair drift, in-play scoring and the game lifecycle, seconds. */
    tickSeconds: z.number().min(0.1).max(600).default(D.pace.tickSeconds),
    /** Replacement games are listed up to this long before they start (×U(0.5, 1)). */
    preGameMinutes: z
      .number()
      .positive()
      .max(14 * 24 * 60)
      .default(D.pace.preGameMinutes),
    /** Mean maker refresh period; each maker runs at ×U(0.7, 1.3) of it. */
    makerRefreshSeconds: z.number().min(0.5).max(3600).default(D.pace.makerRefreshSeconds),
    /** Noise-taker orders per minute across the whole market. */
    noiseTakersPerMinute: z.number().min(0).max(6000).default(D.pace.noiseTakersPerMinute),
    /** Informed-taker scans per minute across the whole market. */
    informedTakersPerMinute: z.number().min(0).max(6000).default(D.pace.informedTakersPerMinute),
  })
  .prefault({});

const makersSchema = z
  .strictObject({
    count: z.int().min(0).max(50).default(D.population.makers.count),
    /** Probability points each maker shades its own side below fair (the spread is twice this). */
    margin: z.number().min(0.001).max(0.25).default(D.population.makers.margin),
    /** Margin multiplier while a game is in play. */
    liveMarginMultiplier: z.number().min(1).max(10).default(D.population.makers.liveMarginMultiplier),
    /** Requote when the target moved more than this (probability points). */
    tolerance: z.number().min(0).max(0.25).default(D.population.makers.tolerance),
    minSize: size.default(D.population.makers.minSize),
    maxSize: size.default(D.population.makers.maxSize),
    expirationMinutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .default(D.population.makers.expirationMinutes),
  })
  .prefault({});

const noiseSchema = z
  .strictObject({
    count: z.int().min(0).max(50).default(D.population.noiseTakers.count),
    minSize: size.default(D.population.noiseTakers.minSize),
    maxSize: size.default(D.population.noiseTakers.maxSize),
    /** Share of noise orders sent as fillAndKill; the rest are limit orders that may rest. */
    fillAndKillShare: z.number().min(0).max(1).default(D.population.noiseTakers.fillAndKillShare),
    /** Expiry of a resting noise limit order. */
    expirationMinutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .default(D.population.noiseTakers.expirationMinutes),
  })
  .prefault({});

const informedSchema = z
  .strictObject({
    count: z.int().min(0).max(50).default(D.population.informedTakers.count),
    /** Smallest expected profit per unit staked (after commission) worth taking. */
    threshold: z.number().min(0).max(1).default(D.population.informedTakers.threshold),
    minSize: size.default(D.population.informedTakers.minSize),
    maxSize: size.default(D.population.informedTakers.maxSize),
    /** Games looked at per scan (bounds the work of one scan). */
    scanGames: z.int().min(1).max(1000).default(D.population.informedTakers.scanGames),
  })
  .prefault({});

export const scenarioSchema = z
  .strictObject({
    name: z.string().min(1).default('custom'),
    description: z.string().optional(),
    /**
     * How the market opens. `fresh`: every first game is pre-game, their starts spread over
     * `horizonMinutes`. `underway`: as if it had been running for a while: each league's
     * games are spread over one game's whole cycle (listed ahead by `preGameMinutes` ×U(0.5, 1),
     * then played), so about duration ÷ (duration + 0.75 × preGameMinutes) of them are in play
     * from the first instant and games end and are replaced at the steady rate from the start.
     */
    opening: z.enum(['fresh', 'underway']).default(D.opening),
    /** With a `fresh` opening, the first games' start times are spread over this window from the market's start. */
    horizonMinutes: z
      .number()
      .positive()
      .max(30 * 24 * 60)
      .default(D.horizonMinutes),
    pace: paceSchema,
    population: z
      .strictObject({
        /** Balance of every synthetic account. */
        balance: z.number().positive().max(1e12).default(D.population.balance),
        makers: makersSchema,
        noiseTakers: noiseSchema,
        informedTakers: informedSchema,
      })
      .prefault({}),
    model: z
      .strictObject({
        /** Multiplies every sport's pre-game random walk (0 freezes prices before the start). */
        preGameDrift: z.number().min(0).max(20).default(D.model.preGameDrift),
        /** Pre-game news jumps per game-hour. */
        newsPerHour: z.number().min(0).max(60).default(D.model.newsPerHour),
        /** In-play shocks (injury, red card) per game-hour, on top of the scoring. */
        liveJumpsPerHour: z.number().min(0).max(60).default(D.model.liveJumpsPerHour),
      })
      .prefault({}),
    leagues: z.array(leagueSchema).min(1).max(100).default(D.leagues),
    /** The simulator's rate limits and socket caps (limit-settings.ts); absent ones keep their defaults. */
    limits: limitsSchema.optional(),
  })
  .superRefine((s, ctx) => {
    const groups = [
      ['makers', s.population.makers],
      ['noiseTakers', s.population.noiseTakers],
      ['informedTakers', s.population.informedTakers],
    ] as const;
    for (const [name, g] of groups) {
      if (g.minSize > g.maxSize) {
        ctx.addIssue({
          code: 'custom',
          path: ['population', name, 'minSize'],
          message: `minSize ${g.minSize} is above maxSize ${g.maxSize}`,
        });
      }
    }
    const seen = new Set<string>();
    s.leagues.forEach((l, i) => {
      const code = l.league.toUpperCase();
      if (seen.has(code))
        ctx.addIssue({ code: 'custom', path: ['leagues', i, 'league'], message: `league ${l.league} is listed twice` });
      seen.add(code);
      if (l.teams && new Set(l.teams).size !== l.teams.length) {
        ctx.addIssue({ code: 'custom', path: ['leagues', i, 'teams'], message: 'team names must be distinct' });
      }
    });
    const total = s.leagues.reduce((n, l) => n + l.games, 0);
    if (total > 5000)
      ctx.addIssue({ code: 'custom', path: ['leagues'], message: `at most 5000 games in all, got ${total}` });
  });

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type LeagueSpec = Scenario['leagues'][number];

export interface ScenarioIssue {
  /** Dotted path of the offending field (`pace.tickSeconds`, `leagues.2.sport`); empty for the document. */
  readonly field: string;
  readonly message: string;
  /** 1-based position in the source, when it came from YAML. */
  readonly line?: number;
  readonly col?: number;
}

/** A scenario that could not be read or is invalid; the message names file, line, column and field. */
export class ScenarioError extends LinesmithError {
  override readonly code = 'LS_ERR_SCENARIO';
  constructor(
    readonly source: string,
    readonly issues: readonly ScenarioIssue[],
  ) {
    super(issues.map((i) => formatIssue(source, i)).join('\n'));
  }

  get field(): string | undefined {
    return this.issues[0]?.field;
  }
  get line(): number | undefined {
    return this.issues[0]?.line;
  }
  get col(): number | undefined {
    return this.issues[0]?.col;
  }
}

function formatIssue(source: string, i: ScenarioIssue): string {
  const where = i.line !== undefined ? `${source}:${i.line}:${i.col ?? 1}` : source;
  return i.field ? `${where}: ${i.field}: ${i.message}` : `${where}: ${i.message}`;
}

/** Validate an already-parsed scenario (an object from YAML or code). Throws ScenarioError. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (result.success) return result.data;
  throw new ScenarioError(
    source,
    result.error.issues.map((issue) => ({ field: fieldOf(issue), message: messageOf(issue, value) })),
  );
}

/** Parse and validate scenario YAML; errors carry the line and column of the field. */
export function parseScenarioYaml(text: string, source = 'scenario.yaml'): Scenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      source,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { field: '', message: `invalid YAML: ${e.message.split('\n')[0]}`, line: pos.line, col: pos.col };
      }),
    );
  }
  const value: unknown = doc.toJS();
  const result = scenarioSchema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ScenarioError(
    source,
    result.error.issues.map((issue) => {
      const pos = locate(doc, lineCounter, issue);
      return {
        field: fieldOf(issue),
        message: messageOf(issue, value),
        ...(pos ? { line: pos.line, col: pos.col } : {}),
      };
    }),
  );
}

/** Read, parse and validate a scenario file. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ScenarioError(path, [
      { field: '', message: code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(e)})` },
    ]);
  }
  return parseScenarioYaml(text, path);
}

type Issue = z.core.$ZodIssue;

function fieldOf(issue: Issue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  return path.join('.');
}

function messageOf(issue: Issue, input: unknown): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    issue.path.length > 0 &&
    valueAt(input, issue.path) === undefined
  ) {
    return `required field is missing (${issue.message.replace(/^Invalid (input|option): /, '')})`;
  }
  return issue.message;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Line and column of the issue's node, or of its nearest existing ancestor (a missing key points at its parent). */
function locate(doc: Document, lc: LineCounter, issue: Issue): { line: number; col: number } | null {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (!isNode(node) || !node.range) continue;
    if (n === path.length && issue.code === 'unrecognized_keys' && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === issue.keys[0]);
      if (pair && isNode(pair.key) && pair.key.range) return lc.linePos(pair.key.range[0]);
    }
    return lc.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}
