/**
 * The page scripts of report.html and sweep.html (plain ES5, run in the browser after the
 * chart helpers of src/shared/html/page.ts). `data` is the page's embedded JSON.
 */

/**
 * report.html: `data` is `{ report, extras, fills }` (ReportPageData). Games are named by
 * teams and start time; two games with the same name and start get `(2)`, `(3)`; the id is
 * on hover. Odds are drawn as implied probability, the American odds in the legend.
 */
export const REPORT_JS = `
var report = data.report;
var info = (data.extras && data.extras.games) || {};
var labels = (function () {
  var ids = {};
  report.games.forEach(function (g) { ids[g.gameID] = true; });
  Object.keys(info).forEach(function (id) { ids[id] = true; });
  Object.keys(report.series.liability).forEach(function (id) { ids[id] = true; });
  report.series.quotes.forEach(function (q) { ids[q.gameID] = true; });
  var named = {};
  report.games.forEach(function (g) { if (g.name) named[g.gameID] = g.name; });
  var base = {}, seen = {}, out = {};
  Object.keys(ids).sort().forEach(function (id) {
    var g = info[id];
    var name = g ? g.away + ' @ ' + g.home : named[id] || 'game ' + id;
    base[id] = g && g.start != null ? name + ' · ' + utcShort(g.start) : name;
  });
  Object.keys(base).sort().forEach(function (id) {
    var n = (seen[base[id]] || 0) + 1;
    seen[base[id]] = n;
    out[id] = n === 1 ? base[id] : base[id] + ' (' + n + ')';
  });
  return out;
})();
function gameName(id) { return Object.prototype.hasOwnProperty.call(labels, id) ? labels[id] : 'game ' + id; }
function gameTip(id) { var g = info[id]; return (g && g.league ? g.league + ' · ' : '') + 'game ' + id; }

(function pnl() {
  var box = document.getElementById('chart-pnl');
  var ddBox = document.getElementById('chart-drawdown');
  var rows = report.series.pnl;
  if (rows.length === 0) { empty(ddBox, 'no samples'); return empty(box, 'no samples'); }
  var xs = rows.map(function (r) { return seconds(r[0]); });
  var d = [xs];
  [1, 2, 3].forEach(function (c) { d.push(rows.map(function (r) { return r[c]; })); });
  plot(box, {
    series: [
      { label: 'settled', stroke: '#1f77b4', width: 1.5, value: moneyValue },
      { label: 'marked', stroke: '#ff7f0e', width: 1.5, value: moneyValue },
      { label: 'total', stroke: '#111827', width: 2.5, value: moneyValue },
    ],
    axes: [{}, moneyAxis()],
  }, d);
  var peak = -Infinity;
  var dd = rows.map(function (r) { peak = Math.max(peak, r[3]); return r[3] - peak; });
  plot(ddBox, {
    title: 'Drawdown: total P&L below its running high',
    height: 200,
    series: [{ label: 'drawdown', stroke: '#b3261e', fill: 'rgba(179,38,30,0.12)', width: 1.5, value: moneyValue }],
    axes: [{}, moneyAxis()],
  }, [xs, dd]);
})();

function groupChart(boxId, table, name, noun) {
  var box = document.getElementById(boxId);
  var keys = table ? Object.keys(table) : [];
  if (keys.length === 0) return empty(box, 'no fills');
  var tables = keys.map(function (k) { return table[k]; });
  var a = align(tables);
  var d = [a.xs.map(seconds)];
  tables.forEach(function (rows) { d.push(column(rows, a.at, a.xs.length, 1)); });
  plot(box, {
    height: 260,
    series: keys.map(function (k, i) { return line(i, { label: name(k), width: 1.75, spanGaps: true, value: moneyValue }); }),
    tips: keys.map(function (k) { return noun + ' ' + (k || '(none)'); }),
    axes: [{}, moneyAxis()],
  }, d);
}
groupChart('chart-pnl-strategy', data.extras && data.extras.pnlByStrategy, function (k) { return k || '(no strategy)'; }, 'strategy');
groupChart('chart-pnl-league', data.extras && data.extras.pnlByLeague, function (k) { return k || '(league unknown)'; }, 'league');

(function liability() {
  var ids = Object.keys(report.series.liability);
  var boxes = [document.getElementById('chart-liability'), document.getElementById('chart-exposure')];
  if (ids.length === 0) return empty(boxes[0], 'no samples');
  var tables = ids.map(function (id) { return report.series.liability[id]; });
  var a = align(tables);
  var titles = ['With resting orders', 'Matched bets only'];
  [1, 2].forEach(function (col, k) {
    var d = [a.xs.map(seconds)];
    tables.forEach(function (rows) { d.push(column(rows, a.at, a.xs.length, col)); });
    var sum = a.xs.map(function (x, i) {
      var s = 0;
      for (var j = 1; j < d.length; j++) if (d[j][i] != null) s += d[j][i];
      return s;
    });
    var series = ids.map(function (id, i) { return line(i, { label: gameName(id), width: 1.5, value: moneyValue }); });
    series.push({ label: 'all games', stroke: '#111827', width: 2, dash: [6, 4], value: moneyValue });
    d.push(sum);
    plot(boxes[k], { title: titles[k], height: 280, series: series, tips: ids.map(gameTip), axes: [{}, moneyAxis()] }, d);
  });
})();

/** Rows [t, …] and extra times: the union, each column carried forward from its last row (never past its last row). */
function carry(rows, extra, cols) {
  var seen = {}, xs = [];
  rows.forEach(function (r) { if (!(r[0] in seen)) { seen[r[0]] = true; xs.push(r[0]); } });
  extra.forEach(function (t) { if (!(t in seen)) { seen[t] = true; xs.push(t); } });
  xs.sort(function (a, b) { return a - b; });
  var last = rows.length ? rows[rows.length - 1][0] : -Infinity;
  var out = cols.map(function () { return []; });
  var j = -1;
  xs.forEach(function (x) {
    while (j + 1 < rows.length && rows[j + 1][0] <= x) j++;
    cols.forEach(function (c, k) { out[k].push(j >= 0 && x <= last ? (rows[j][c] == null ? null : rows[j][c]) : null); });
  });
  return { xs: xs, cols: out };
}

(function positions() {
  var grid = document.getElementById('charts-positions');
  var ids = Object.keys(report.series.liability);
  if (ids.length === 0) return empty(grid, 'no samples');
  var deepest = {};
  ids.forEach(function (id) { deepest[id] = Math.min.apply(null, [0].concat(report.series.liability[id].map(function (r) { return r[1]; }))); });
  ids.sort(function (a, b) { return deepest[a] - deepest[b] || (a < b ? -1 : 1); });
  ids.slice(0, 12).forEach(function (id) {
    var fills = data.fills.filter(function (f) { return f[1] === id; });
    var rows = report.series.liability[id];
    var c = carry(rows, fills.map(function (f) { return f[0]; }), [1, 2]);
    var staked = 0, k = 0;
    var stake = c.xs.map(function (x) {
      while (k < fills.length && fills[k][0] <= x) { staked += fills[k][6]; k++; }
      return staked;
    });
    var card = document.createElement('div');
    var title = document.createElement('h3');
    title.textContent = gameName(id);
    title.title = gameTip(id);
    card.appendChild(title);
    var box = document.createElement('div');
    card.appendChild(box);
    grid.appendChild(card);
    plot(box, {
      height: 220,
      series: [
        { label: 'worst case with resting orders', stroke: '#d62728', width: 1.75, value: moneyValue },
        { label: 'worst case of matched bets', stroke: '#ff7f0e', width: 1.5, dash: [5, 3], value: moneyValue },
        { label: 'our stake matched (right axis)', stroke: '#1f77b4', width: 1.5, scale: 'stake', value: moneyValue },
      ],
      scales: { stake: { range: yRange } },
      axes: [{}, moneyAxis(), Object.assign(moneyAxis(), { scale: 'stake', side: 1, grid: { show: false }, stroke: '#1f77b4' })],
    }, [c.xs.map(seconds), c.cols[0], c.cols[1], stake]);
  });
})();

/** Implied win probability of American odds (≥ +100 or ≤ −100). */
function prob(o) { return o == null ? null : o < 0 ? -o / (100 - o) : 100 / (o + 100); }
function american(o) { if (o == null) return '—'; o = Math.round(o); return o > 0 ? '+' + o : String(o); }
function pct(p) { return p == null ? '—' : (p * 100).toFixed(1) + '%'; }
function sides(bookKey) {
  var kind = bookKey.split(':')[0];
  return kind === 'total' ? ['over', 'under'] : kind === 'moneyline1x2' ? ['yes', 'no'] : ['home', 'away'];
}

(function quotes() {
  var grid = document.getElementById('charts-quotes');
  if (report.series.quotes.length === 0) return empty(grid, 'no quotes sampled');
  report.series.quotes.forEach(function (q) {
    var card = document.createElement('div');
    var title = document.createElement('h3');
    title.textContent = gameName(q.gameID) + ' · ' + q.bookKey;
    title.title = gameTip(q.gameID);
    card.appendChild(title);
    var box = document.createElement('div');
    card.appendChild(box);
    grid.appendChild(card);
    if (q.rows.length === 0) return empty(box, 'no samples');
    var fills = data.fills.filter(function (f) { return f[1] === q.gameID && f[2] === q.bookKey; });
    var c = carry(q.rows, fills.map(function (f) { return f[0]; }), [1, 2, 3, 4]);
    var at = {};
    c.xs.forEach(function (x, i) { at[x] = i; });
    var marks = [new Array(c.xs.length).fill(null), new Array(c.xs.length).fill(null)];
    fills.forEach(function (f) { marks[f[3]][at[f[0]]] = f[4]; });
    var odds = c.cols.concat(marks);
    var d = [c.xs.map(seconds)].concat(odds.map(function (col) { return col.map(prob); }));
    var v = function (u, p, si, di) { var o = di == null ? null : odds[si - 1][di]; return o == null ? '—' : american(o) + ' (' + pct(p) + ')'; };
    var s = sides(q.bookKey);
    function dots(label, col) {
      return {
        label: label, stroke: col, fill: col, value: v, paths: function () { return null; },
        points: { show: true, size: 9, stroke: '#111827', fill: col }
      };
    }
    plot(box, {
      height: 240,
      series: [
        { label: 'ours ' + s[0], stroke: '#1f77b4', width: 2, value: v },
        { label: 'market ' + s[0], stroke: '#1f77b4', width: 1, dash: [5, 4], value: v },
        { label: 'ours ' + s[1], stroke: '#d62728', width: 2, value: v },
        { label: 'market ' + s[1], stroke: '#d62728', width: 1, dash: [5, 4], value: v },
        dots('our fills (taker of ' + s[0] + ')', '#1f77b4'),
        dots('our fills (taker of ' + s[1] + ')', '#d62728'),
      ],
      axes: [{}, {
        size: 56, label: 'implied probability',
        values: function (u, vals) { return vals.map(function (p) { return (p * 100).toFixed(0) + '%'; }); }
      }],
    }, d);
  });
})();

(function markouts() {
  var box = document.getElementById('chart-markouts');
  var rows = report.series.markouts.slice().sort(function (a, b) { return a[0] - b[0]; });
  if (rows.length === 0) return empty(box, 'no fills');
  var d = [rows.map(function (r) { return seconds(r[0]); })];
  [3, 4].forEach(function (c) { d.push(rows.map(function (r) { return r[c] == null ? null : r[c]; })); });
  function dots(label, c) {
    return { label: label, stroke: c, fill: c, value: moneyValue, paths: function () { return null; }, points: { show: true, size: 6, stroke: c, fill: c } };
  }
  plot(box, { height: 300, series: [dots('value 5 s later', '#1f77b4'), dots('value 60 s later', '#d62728')], axes: [{}, moneyAxis()] }, d);
})();
`;

/**
 * sweep.html: `data` is `{ rows }` (SweepEmbeddedRow). Variants with the same result as an
 * earlier one are drawn dashed and say whose result they share.
 */
export const SWEEP_JS = `
(function overlay() {
  var box = document.getElementById('chart-sweep');
  var rows = data.rows;
  if (rows.length === 0 || rows.every(function (r) { return r.pnl.length === 0; })) return empty(box, 'no samples');
  var a = align(rows.map(function (r) { return r.pnl; }));
  var d = [a.xs.map(seconds)];
  var series = rows.map(function (r, i) {
    d.push(column(r.pnl, a.at, a.xs.length, 3));
    var label = '#' + (i + 1) + (r.label ? ' ' + r.label : '');
    if (r.sameAs != null) label += ' (same P&L as #' + (r.sameAs + 1) + ')';
    var dash = r.sameAs != null ? DASHES[1 + (i % (DASHES.length - 1))] : DASHES[Math.floor(i / PALETTE.length) % DASHES.length];
    var s = { label: label, stroke: color(i), width: r.sameAs != null ? 2.5 : 1.75, spanGaps: true, value: moneyValue };
    if (dash) s.dash = dash;
    return s;
  });
  plot(box, { height: 360, series: series, axes: [{}, moneyAxis()] }, d);
})();
`;
