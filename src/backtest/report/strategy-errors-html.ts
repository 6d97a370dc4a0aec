import type { BacktestReport } from './types.ts';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (x: number): string => x.toLocaleString('en-US');
const num = (x: number): string => `<td class="num">${n(x)}</td>`;
const head = (names: readonly string[]): string =>
  `<thead><tr>${names.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`;
const BY_STRATEGY = head(['strategy', 'evaluations', 'failed', 'threw', 'bad result', 'malformed intents']);
const DISTINCT = head(['strategy', 'kind', 'error', 'count', 'first on game']);
const WARNING =
  'A failed evaluation leaves its game unquoted until the next one: the figures above are those of ' +
  'a strategy that did not run as written.';

/**
 * The report page's strategy errors: per strategy its evaluations, those that failed and its
 * errors by kind, then each distinct error with its count. Nothing when no strategy erred:
 * the section is there to be noticed.
 */
export function strategyErrorsSection(r: BacktestReport): string {
  const e = r.strategyErrors;
  if (!e || e.total === 0) return '';
  const rows = e.strategies.map(
    (s) =>
      `<tr><td>${esc(s.strategy)}</td>${num(s.evaluations)}${num(s.failed)}` +
      `${num(s.kinds.threw)}${num(s.kinds['bad-result'])}${num(s.kinds['malformed-intent'])}</tr>`,
  );
  const distinct = e.strategies.flatMap((s) =>
    s.distinct.map(
      (d) =>
        `<tr><td>${esc(s.strategy)}</td><td>${esc(d.kind)}</td><td><code>${esc(d.error)}</code>` +
        `${d.at ? `<br><span class="muted">at ${esc(d.at)}</span>` : ''}</td>` +
        `${num(d.count)}<td>${esc(d.firstGame)}</td></tr>`,
    ),
  );
  return `<section id="strategy-errors">
<h2>Strategy errors: ${n(e.total)}</h2>
<p class="warn">${WARNING}</p>
<table class="strategy-errors">${BY_STRATEGY}<tbody>${rows.join('')}</tbody></table>
<table class="strategy-errors">${DISTINCT}<tbody>${distinct.join('')}</tbody></table>
</section>`;
}
