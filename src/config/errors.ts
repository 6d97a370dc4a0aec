import { LinesmithError } from '../shared/errors.ts';

/** One problem in a run configuration, located in its file when it came from YAML. */
export interface ConfigIssue {
  readonly file: string;
  /** 1-based; absent when the file could not be read at all. */
  readonly line?: number;
  readonly column?: number;
  /** Dotted path of the field (`risk.maxGameLiability`, `strategies.1.params.spread`); empty for the whole document. */
  readonly path: string;
  readonly message: string;
}

/**
 * A configuration that cannot run. Every issue found is listed, not just the first, so
 * one edit fixes a file instead of one edit per attempt.
 */
export class ConfigError extends LinesmithError {
  override readonly code = 'LS_ERR_CONFIG';
  constructor(
    readonly file: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(issues.length === 0 ? `${file}: invalid configuration` : issues.map(formatConfigIssue).join('\n'));
  }
}

/** A strategy a config names that cannot be had: unknown by name, no such file, not importable, or exporting no strategy. */
export class StrategyModuleError extends LinesmithError {
  override readonly code = 'LS_ERR_STRATEGY_MODULE';
}

/** `file:line:col: path: message`, dropping the parts an issue does not have. */
export function formatConfigIssue(i: ConfigIssue): string {
  const where = i.line !== undefined ? `${i.file}:${i.line}:${i.column ?? 1}` : i.file;
  return i.path ? `${where}: ${i.path}: ${i.message}` : `${where}: ${i.message}`;
}

/** Document order, so the message reads top to bottom like the file. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
