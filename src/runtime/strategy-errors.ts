import type { Logger } from 'pino';
import { originalPosition } from '../loader/original-position.mjs';
import type { IntentProblem } from './intent-check.ts';

/**
 * What went wrong with one quote() call:
 * - `threw`: it threw;
 * - `bad-result`: it returned something other than a list of intents;
 * - `malformed-intent`: an intent in its list could not be acted on and was dropped (one per intent).
 */
export type StrategyErrorKind = 'threw' | 'bad-result' | 'malformed-intent';

export const STRATEGY_ERROR_KINDS: readonly StrategyErrorKind[] = ['threw', 'bad-result', 'malformed-intent'];

/** One distinct error of a strategy: the same kind, error and place it came from. */
export interface DistinctStrategyError {
  readonly kind: StrategyErrorKind;
  /** `TypeError: message` for a throw; the problem found otherwise. */
  readonly error: string;
  /** The first stack frame of a throw (`file:line:col`), else null. */
  readonly at: string | null;
  readonly count: number;
  /** The game and runtime-clock time of its first occurrence. */
  readonly firstGame: string;
  readonly firstAt: number;
}

/** One strategy's errors since the runtime started. */
export interface StrategyErrorCounts {
  readonly strategy: string;
  /** quote() calls. */
  readonly evaluations: number;
  /** Calls that gave no usable list (threw or returned a bad value): the game went unquoted. */
  readonly failed: number;
  /** Every error counted: the failed calls plus the malformed intents dropped. */
  readonly errors: number;
  readonly kinds: Readonly<Record<StrategyErrorKind, number>>;
  /** The distinct errors, most frequent first; at most MAX_DISTINCT, the rest counted in `otherDistinct`. */
  readonly distinct: readonly DistinctStrategyError[];
  readonly otherDistinct: number;
}

export interface StrategyErrorReport {
  /** Errors of every strategy. */
  readonly total: number;
  readonly strategies: readonly StrategyErrorCounts[];
}

/** One error as it happens (for `--strict`, which stops at the first). */
export interface StrategyErrorEvent {
  readonly strategy: string;
  readonly gameID: string;
  readonly kind: StrategyErrorKind;
  readonly error: string;
}

/** Distinct errors kept per strategy: a strategy whose message names the game would otherwise keep one per game. */
const MAX_DISTINCT = 20;

interface Distinct {
  readonly kind: StrategyErrorKind;
  readonly error: string;
  readonly at: string | null;
  count: number;
  readonly firstGame: string;
  readonly firstAt: number;
}

interface PerStrategy {
  evaluations: number;
  failed: number;
  errors: number;
  readonly kinds: Record<StrategyErrorKind, number>;
  readonly distinct: Map<string, Distinct>;
  otherDistinct: number;
}

/** `TypeError: message` of a thrown value, whatever was thrown. */
export function describeThrown(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  const text = typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
  return `threw ${typeof err} ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** The first frame of a stack (`/path/file.ts:12:11`), where the throw happened. */
function firstFrame(err: unknown): string | null {
  if (!(err instanceof Error) || typeof err.stack !== 'string') return null;
  const line = err.stack.split('\n').find((l) => /^\s+at /.test(l));
  if (!line) return null;
  const m = /\(([^()]+)\)\s*$/.exec(line) ?? /^\s+at (.+)$/.exec(line);
  if (!m) return null;
  const frame = m[1]!.trim();
  // Compiled code (the replay's process) names the source it came from, as code run from source does.
  const at = /^(.*):(\d+):(\d+)$/.exec(frame);
  const source = at ? originalPosition(at[1]!, Number(at[2]), Number(at[3])) : null;
  const shown = source ? `${source.source}:${source.line}:${source.column}` : frame;
  // The file's name, not its path: the reports hold nothing of the machine they ran on (the log has the whole stack).
  return shown.replace(/^.*[/\\]/, '');
}

/** 10, 100, 1 000, …: when a repeated error is logged again, with its count. */
const isPowerOfTen = (n: number): boolean => n >= 10 && /^10*$/.test(String(n));

/**
 * Counts a strategy's failures by strategy, kind and distinct error, and keeps the log
 * readable: the first occurrence of each distinct error is logged with its stack, a repeat
 * only when its count reaches 10, 100, 1 000 and so on. A strategy that throws on every
 * call would otherwise write one stack per evaluation, thousands a minute.
 */
export class StrategyErrors {
  readonly #log: Logger;
  readonly #onError: ((e: StrategyErrorEvent) => void) | undefined;
  readonly #by = new Map<string, PerStrategy>();
  /** Errors per strategy id, kept as a map for the metrics. */
  readonly #totals = new Map<string, number>();
  #total = 0;

  constructor(options: { readonly logger: Logger; readonly onError?: (e: StrategyErrorEvent) => void }) {
    this.#log = options.logger;
    this.#onError = options.onError;
  }

  /** A quote() call is about to be made. */
  evaluated(strategy: string): void {
    this.#of(strategy).evaluations++;
  }

  /**
   * The strategy's count of evaluations, to add to (`evaluations++`) as `evaluated` does:
   * a caller that evaluates the same strategy again and again keeps it, rather than looking
   * the strategy up each time.
   */
  evaluationCount(strategy: string): { evaluations: number } {
    return this.#of(strategy);
  }

  threw(strategy: string, gameID: string, err: unknown, now: number): void {
    this.#of(strategy).failed++;
    this.#count(strategy, gameID, 'threw', describeThrown(err), firstFrame(err), now, err);
  }

  badResult(strategy: string, gameID: string, problem: string, now: number): void {
    this.#of(strategy).failed++;
    this.#count(strategy, gameID, 'bad-result', problem, null, now);
  }

  malformed(strategy: string, gameID: string, dropped: readonly IntentProblem[], now: number): void {
    for (const d of dropped)
      this.#count(strategy, gameID, 'malformed-intent', d.problem, null, now, undefined, {
        index: d.index,
        key: d.key,
      });
  }

  get total(): number {
    return this.#total;
  }

  /** Errors per strategy id (failed calls plus malformed intents), as the metrics export them. */
  get byStrategy(): ReadonlyMap<string, number> {
    return this.#totals;
  }

  /** Strategies whose every quote() call so far failed (none made: not listed). */
  failingEveryEvaluation(): StrategyErrorCounts[] {
    return this.report().strategies.filter((s) => s.evaluations > 0 && s.failed === s.evaluations);
  }

  /** The counts, strategies in the order given (each strategy id known to the runtime listed, errors or not). */
  report(strategyIds: readonly string[] = []): StrategyErrorReport {
    const ids = [...new Set([...strategyIds, ...this.#by.keys()])];
    return {
      total: this.#total,
      strategies: ids.map((id) => {
        const s = this.#by.get(id);
        return {
          strategy: id,
          evaluations: s?.evaluations ?? 0,
          failed: s?.failed ?? 0,
          errors: s?.errors ?? 0,
          kinds: { ...(s?.kinds ?? emptyKinds()) },
          distinct: [...(s?.distinct.values() ?? [])].sort((a, b) => b.count - a.count).map((d) => ({ ...d })),
          otherDistinct: s?.otherDistinct ?? 0,
        };
      }),
    };
  }

  #of(strategy: string): PerStrategy {
    let s = this.#by.get(strategy);
    if (!s)
      this.#by.set(
        strategy,
        (s = { evaluations: 0, failed: 0, errors: 0, kinds: emptyKinds(), distinct: new Map(), otherDistinct: 0 }),
      );
    return s;
  }

  #count(
    strategy: string,
    gameID: string,
    kind: StrategyErrorKind,
    error: string,
    at: string | null,
    now: number,
    err?: unknown,
    extra?: object,
  ): void {
    const s = this.#of(strategy);
    s.errors++;
    s.kinds[kind]++;
    this.#total++;
    this.#totals.set(strategy, (this.#totals.get(strategy) ?? 0) + 1);
    const key = `${kind}\u0000${error}\u0000${at ?? ''}`;
    const d = s.distinct.get(key);
    if (d) {
      d.count++;
      if (isPowerOfTen(d.count))
        this.#log.error(
          { strategy, kind, error, at, count: d.count, strategyErrors: s.errors },
          `strategy error repeated ${d.count} times (logged at 10, 100, 1000, …)`,
        );
    } else if (s.distinct.size < MAX_DISTINCT) {
      s.distinct.set(key, { kind, error, at, count: 1, firstGame: gameID, firstAt: now });
      this.#log.error(
        { strategy, gameID, kind, ...(err !== undefined ? { err } : { error }), ...extra },
        `strategy error (${kind}): ${error}; later ones like it are counted, not logged each time`,
      );
    } else {
      s.otherDistinct++;
      if (s.otherDistinct === 1)
        this.#log.error(
          { strategy, kind, error },
          `strategy has ${MAX_DISTINCT} distinct errors: further ones are counted only`,
        );
    }
    this.#onError?.({ strategy, gameID, kind, error });
  }
}

const emptyKinds = (): Record<StrategyErrorKind, number> => ({ threw: 0, 'bad-result': 0, 'malformed-intent': 0 });

const n = (x: number) => x.toLocaleString('en-US');

/**
 * `broken 120 of 120 evaluations failed (threw 120); fixed-spread none`: one clause per
 * strategy, for the summaries and the status line.
 */
export function strategyErrorClauses(r: StrategyErrorReport): string {
  return r.strategies
    .map((s) => {
      if (s.errors === 0) return `${s.strategy} none`;
      const kinds = STRATEGY_ERROR_KINDS.filter((k) => s.kinds[k] > 0).map(
        (k) => `${k === 'malformed-intent' ? 'malformed intents' : k} ${n(s.kinds[k])}`,
      );
      return `${s.strategy} ${n(s.failed)} of ${n(s.evaluations)} evaluations failed (${kinds.join(', ')})`;
    })
    .join('; ');
}

/**
 * `strategy errors   14,346: broken 14,346 of 14,346 evaluations failed (threw 14,346)`, then
 * the commonest distinct errors of each strategy; no lines without an error.
 */
export function strategyErrorLines(r: StrategyErrorReport, label: string): string[] {
  if (r.total === 0) return [];
  const lines = [`${label}${n(r.total)}: ${strategyErrorClauses(r)}`];
  const pad = ' '.repeat(label.length);
  for (const s of r.strategies) {
    for (const d of s.distinct.slice(0, 3))
      lines.push(
        `${pad}${s.strategy}: ${n(d.count)}× ${d.kind === 'threw' ? '' : `${d.kind}: `}${d.error}${d.at ? ` (at ${d.at})` : ''}`,
      );
    const more = s.distinct.length - Math.min(3, s.distinct.length) + s.otherDistinct;
    if (more > 0)
      lines.push(`${pad}${s.strategy}: ${more} more distinct error(s); the log has the first stack of each`);
  }
  return lines;
}
