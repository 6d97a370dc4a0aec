import { htmlPage } from '../../shared/html/page.ts';

/**
 * The live dashboard: one self-contained page (uPlot inlined, no network but its own
 * `dashboard.json`), served at `/` beside `/metrics` and `/status`. It polls the snapshot
 * every two seconds and keeps the history since it was opened; every string from the
 * session is set as text, never as markup.
 */

/** How often the page reads `dashboard.json`, ms. */
export const DASHBOARD_POLL_MS = 2_000;

const CSS = `
:root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--alt:#f7f8fa;--pos:#137333;--neg:#b3261e;--warn:#a15c00}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:#f2f4f7}
main{max-width:1360px;margin:0 auto;padding:16px 20px}
header h1{font-size:20px;margin:0 0 4px}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0}
h2{font-size:15px;margin:0 0 8px}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:10px}
.tile{background:var(--alt);border-radius:6px;padding:8px 10px}
.tile .k{font-size:12px;color:var(--muted)}
.tile .v{font-size:18px;font-weight:600;font-variant-numeric:tabular-nums}
.tile .s{font-size:12px;color:var(--muted)}
.pos{color:var(--pos)}.neg{color:var(--neg)}.warn{color:var(--warn)}.muted{color:var(--muted)}
.mode-active{color:var(--pos)}.mode-reducing{color:var(--warn)}.mode-halted{color:var(--neg)}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,600px),1fr));gap:12px}
.chart{min-width:0}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left}
th{font-size:12px;color:var(--muted)}
td.num,th.num{text-align:right}
.bar{height:8px;background:#eef0f3;border-radius:4px;overflow:hidden;min-width:120px}
.bar>div{height:100%;background:#d62728}
.empty{color:var(--muted);font-style:italic}
#state.stale{color:var(--neg)}
footer{color:var(--muted);font-size:12px;text-align:center;margin:16px 0}
`;

const BODY = `<header>
<h1>linesmith · <span id="session">session</span> · <span id="mode">…</span></h1>
<p class="muted" id="state">waiting for the first reading…</p>
</header>
<section id="overview"><h2>Now</h2><div class="tiles" id="tiles"></div></section>
<section id="halts"><h2>Halts</h2><div id="halt-list"><p class="empty">none</p></div></section>
<section id="history"><h2>Since this page opened</h2>
<div class="charts">
<div><div class="chart" id="chart-pnl"></div></div>
<div><div class="chart" id="chart-worst"></div></div>
<div><div class="chart" id="chart-activity"></div></div>
<div><div class="chart" id="chart-fills"></div></div>
</div></section>
<section id="games"><h2>Worst case per game, against the per-game cap</h2>
<div id="game-table"><p class="empty">no game with a worst case below 0</p></div></section>
<section id="feeds"><h2>Feeds and requests</h2><div id="feed-table"></div></section>`;

const DASHBOARD_JS = `
var history = [];
var made = null;
function el(tag, text, cls) { var e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
function clear(box) { while (box.firstChild) box.removeChild(box.firstChild); }
function tile(box, key, value, sub, cls) {
  var t = el('div', null, 'tile');
  t.appendChild(el('div', key, 'k'));
  t.appendChild(el('div', value, 'v' + (cls ? ' ' + cls : '')));
  if (sub) t.appendChild(el('div', sub, 's'));
  box.appendChild(t);
}
function signed(v) { return v > 0.005 ? 'pos' : v < -0.005 ? 'neg' : ''; }
function secs(v) { return v == null ? '—' : v < 10 ? v.toFixed(2) + ' s' : v.toFixed(0) + ' s'; }
function errorsText(e) {
  if (e == null) return ['not counted by this runtime', ''];
  if (typeof e === 'number') return [String(e), ''];
  if (typeof e === 'object') {
    var total = 0, parts = [];
    Object.keys(e).forEach(function (k) {
      var v = e[k];
      if (typeof v === 'number') { total += v; parts.push(k + ' ' + v); }
      else if (v && typeof v === 'object' && typeof v.count === 'number') { total += v.count; parts.push(k + ' ' + v.count); }
    });
    return [String(total), parts.join(', ')];
  }
  return [String(e), ''];
}
function table(box, head, rows) {
  clear(box);
  var t = el('table'), tr = el('tr');
  head.forEach(function (h) { tr.appendChild(el('th', h[0], h[1] ? 'num' : '')); });
  var thead = el('thead'); thead.appendChild(tr); t.appendChild(thead);
  var tb = el('tbody');
  rows.forEach(function (r) {
    var row = el('tr');
    r.forEach(function (c, i) {
      if (c && c.nodeType) { var td = el('td'); td.appendChild(c); row.appendChild(td); }
      else row.appendChild(el('td', c, head[i][1] ? 'num' : ''));
    });
    tb.appendChild(row);
  });
  t.appendChild(tb);
  box.appendChild(t);
}
function bar(share) {
  var b = el('div', null, 'bar'), f = el('div');
  f.style.width = Math.max(0, Math.min(100, share * 100)).toFixed(1) + '%';
  b.appendChild(f);
  return b;
}
function drawCharts() {
  var d = function (cols) {
    var times = history.map(function (h) { return h.t; });
    return [times].concat(cols.map(function (c) { return history.map(function (h) { return h[c]; }); }));
  };
  if (!made) {
    made = [
      plot(document.getElementById('chart-pnl'), { title: 'P&L', height: 240, series: [
        { label: 'settled', stroke: '#1f77b4', width: 1.5, value: moneyValue },
        { label: 'marked', stroke: '#ff7f0e', width: 1.5, value: moneyValue },
        { label: 'total', stroke: '#111827', width: 2.5, value: moneyValue }], axes: [{}, moneyAxis()] }, d(['settled', 'marked', 'total'])),
      plot(document.getElementById('chart-worst'), { title: 'Worst case, all games, against the cap', height: 240, series: [
        { label: 'worst case', stroke: '#d62728', width: 2, value: moneyValue },
        { label: 'cap', stroke: '#111827', width: 1, dash: [6, 4], value: moneyValue }], axes: [{}, moneyAxis()] }, d(['worst', 'cap'])),
      plot(document.getElementById('chart-activity'), { title: 'Games quoted and open orders', height: 240, series: [
        { label: 'games quoted', stroke: '#2ca02c', width: 1.75 },
        { label: 'open orders', stroke: '#9467bd', width: 1.75 }] }, d(['quoted', 'open'])),
      plot(document.getElementById('chart-fills'), { title: 'Fills since start', height: 240, series: [
        { label: 'maker', stroke: '#1f77b4', width: 1.75 },
        { label: 'taker', stroke: '#d62728', width: 1.75 }] }, d(['maker', 'taker'])),
    ];
    return;
  }
  made[0].setData(d(['settled', 'marked', 'total']));
  made[1].setData(d(['worst', 'cap']));
  made[2].setData(d(['quoted', 'open']));
  made[3].setData(d(['maker', 'taker']));
}
function show(snap) {
  var s = snap.status;
  document.getElementById('session').textContent = s.session;
  var mode = document.getElementById('mode');
  mode.textContent = s.mode;
  mode.className = 'mode-' + s.mode;
  var state = document.getElementById('state');
  state.className = '';
  state.textContent = 'up ' + Math.round(s.uptimeSeconds) + ' s · read ' + new Date().toISOString().slice(11, 19) +
    ' UTC · every ${DASHBOARD_POLL_MS / 1000} s';
  var total = s.realizedPnl + snap.markedPnl;
  history.push({
    t: Date.now() / 1000, settled: s.realizedPnl, marked: snap.markedPnl, total: total, worst: s.worstCase,
    cap: -snap.caps.maxTotalLiability, quoted: s.quotedGames, open: s.openOrders, maker: s.fills.maker, taker: s.fills.taker
  });
  if (history.length > 3600) history.shift();
  var tiles = document.getElementById('tiles');
  clear(tiles);
  tile(tiles, 'games quoted', s.quotedGames + ' / ' + s.games);
  tile(tiles, 'open orders', String(s.openOrders));
  tile(tiles, 'fills', String(s.fills.maker + s.fills.taker),
    'maker ' + s.fills.maker + ' (' + money(s.fills.makerVolume) + '), taker ' + s.fills.taker + ' (' + money(s.fills.takerVolume) + ')');
  tile(tiles, 'P&L settled', money(s.realizedPnl), null, signed(s.realizedPnl));
  tile(tiles, 'P&L marked to fair', money(snap.markedPnl), 'total ' + money(total), signed(snap.markedPnl));
  var used = snap.caps.maxTotalLiability > 0 ? -s.worstCase / snap.caps.maxTotalLiability : 0;
  tile(tiles, 'worst case, all games', money(s.worstCase),
    (used * 100).toFixed(0) + '% of the ' + money(snap.caps.maxTotalLiability) + ' cap', used >= 0.9 ? 'neg' : used >= 0.7 ? 'warn' : '');
  var errs = errorsText(snap.strategyErrors);
  tile(tiles, 'strategy errors', errs[0], errs[1], errs[0] !== '0' && /^\\d+$/.test(errs[0]) ? 'neg' : '');
  tile(tiles, 'orders', String(s.orders.placesSent),
    'cancels ' + s.orders.cancelsSent + ', refused by risk ' + s.orders.riskRejected + ', rejected ' + s.orders.exchangeRejected);
  var rl = s.rateLimit;
  tile(tiles, 'request budget', rl ? rl.waits + ' waits' : 'not read',
    rl ? 'waited ' + secs(rl.waitSeconds) + ', 429 answers ' + rl.responses429 : '', rl && rl.responses429 > 0 ? 'warn' : '');
  if (s.heartbeat) tile(tiles, 'heartbeat lapses', String(s.heartbeat.lapses),
    s.heartbeat.cancelledOrders + ' orders cancelled by the exchange', s.heartbeat.lapses > 0 ? 'neg' : '');
  var halts = document.getElementById('halt-list');
  clear(halts);
  if (s.haltReasons.length === 0) halts.appendChild(el('p', 'none', 'empty'));
  else { var ul = el('ul'); s.haltReasons.forEach(function (r) { ul.appendChild(el('li', r, 'neg')); }); halts.appendChild(ul); }
  var games = document.getElementById('game-table');
  if (snap.games.length === 0) { clear(games); games.appendChild(el('p', 'no game with a worst case below 0', 'empty')); }
  else table(games, [['game', false], ['worst case', true], ['of the ' + money(snap.caps.maxGameLiability) + ' cap', false]], snap.games.map(function (g) {
    var name = el('span', g.name);
    name.title = 'game ' + g.gameID;
    return [name, money(g.worstCase), bar(snap.caps.maxGameLiability > 0 ? -g.worstCase / snap.caps.maxGameLiability : 0)];
  }));
  var f = s.feeds;
  var rows = [['price', f.price], ['user', f.user]].map(function (x) {
    return [x[0], x[1].status, String(x[1].reconnects), String(x[1].events), secs(x[1].idleSeconds), secs(x[1].epochLagSeconds)];
  });
  if (f.orders) rows.push(['orders', f.orders.status, String(f.orders.reconnects), '—', '—', '—']);
  var heads = [['feed', false], ['status', false], ['reconnects', true], ['events', true], ['idle', true], ['exchange → here', true]];
  table(document.getElementById('feed-table'), heads, rows);
  drawCharts();
}
function poll() {
  fetch('dashboard.json', { cache: 'no-store' })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(show)
    .catch(function (e) {
      var state = document.getElementById('state');
      state.className = 'stale';
      state.textContent = 'no reading: ' + (e && e.message ? e.message : 'the session is gone') + ' (the figures below are the last read)';
    })
    .then(function () { setTimeout(poll, ${DASHBOARD_POLL_MS}); });
}
poll();
`;

let html: string | undefined;

/** The dashboard page: the same bytes every time, built once. */
export function dashboardHtml(): string {
  if (html) return html;
  html = htmlPage({
    title: 'linesmith · dashboard',
    css: CSS,
    body: BODY,
    footer:
      'linesmith live dashboard · read-only · times in UTC · <a href="status">status</a> · <a href="metrics">metrics</a>',
    connectsToSelf: true,
    script: DASHBOARD_JS,
  });
  return html;
}
