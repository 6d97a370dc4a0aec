import type { BacktestReport } from './types.ts';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (x: number): string => x.toLocaleString('en-US');

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
      `<tr><td>${esc(s.strategy)}</td><td class="num">${n(s.evaluations)}</td><td class="num">${n(s.failed)}</td><td class="num">${n(s.kinds.threw)}</td><td class="num">${n(s.kinds['bad-result'])}</td><td class="num">${n(s.kinds['malformed-intent'])}</td></tr>`,
  );
  const distinct = e.strategies.flatMap((s) =>
    s.distinct.map(
      (d) =>
        `<tr><td>${esc(s.strategy)}</td><td>${esc(d.kind)}</td><td><code>${esc(d.error)}</code>${d.at ? `<br><span class="muted">at ${esc(d.at)}</span>` : ''}</td><td class="num">${n(d.count)}</td><td>${esc(d.firstGame)}</td></tr>`,
    ),
  );
  return `<section id="strategy-errors">
<h2>Strategy errors: ${n(e.total)}</h2>
<p class="warn">A failed evaluation leaves its game unquoted until the next one: the figures above are those of a strategy that did not run as written.</p>
<table class="strategy-errors"><thead><tr><th>strategy</th><th>evaluations</th><th>failed</th><th>threw</th><th>bad result</th><th>malformed intents</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<table class="strategy-errors"><thead><tr><th>strategy</th><th>kind</th><th>error</th><th>count</th><th>first on game</th></tr></thead><tbody>${distinct.join('')}</tbody></table>
</section>`;
}
