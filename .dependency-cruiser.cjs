/**
 * The layering of src/, checked by `npm run lint:layers` (and so by .ci/run).
 *
 * Folders are ranked, highest first: a file may import from its own folder and from any
 * folder ranked below it, never from one ranked above. Every folder has a rank of its
 * own, so the folder graph cannot hold a cycle. ARCHITECTURE.md explains the order.
 * A new folder under src/ gets a rank here before it may import anything.
 */
const LAYERS = [
  // Entry points: the command line, the soak harness, the demos.
  ['cli', '^src/cli/'],
  ['soak', '^src/soak/'],
  ['demo', '^src/demo/'],
  // linesmith/testing: backtests for strategy projects' tests, composed like the CLI's.
  ['testing', '^src/testing/'],
  // Composition: sessions, runtime options from config, the strategy registry.
  ['app', '^src/app/'],
  ['config', '^src/config/'],
  ['metrics', '^src/metrics/'],
  ['backtest', '^src/backtest/'],
  ['runtime', '^src/runtime/'],
  ['record', '^src/record/'],
  ['sim', '^src/sim/'],
  ['orders', '^src/orders/'],
  // The built-in strategies (outside src/) are written as any user's strategy is.
  ['strategies', '^strategies/'],
  ['strategy', '^src/strategy/'],
  ['market-model', '^src/market-model/'],
  ['engine', '^src/engine/'],
  ['exchange', '^src/exchange/'],
  ['money', '^src/money/'],
  ['markets', '^src/markets/'],
  ['odds', '^src/odds/'],
  // How TypeScript and user strategies load (tsx hooks): imports nothing of linesmith.
  ['loader', '^src/loader/'],
  ['shared', '^src/shared/'],
];

const FOLDER_NAMES = LAYERS.filter(([, path]) => path.startsWith('^src/')).map(([name]) => name);

const layerRules = LAYERS.slice(1).map(([name, path], i) => ({
  name: `layer-${name}-imports-only-down`,
  comment: `${name} sits below ${LAYERS.slice(0, i + 1)
    .map(([n]) => n)
    .join(', ')}: it may not import from them (see ARCHITECTURE.md).`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(0, i + 1).map(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'folder-not-in-a-layer',
      comment:
        'Every folder under src/ has a rank in .dependency-cruiser.cjs (LAYERS); add the new one where it belongs.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${FOLDER_NAMES.join('|')})/` },
      to: {},
    },
    {
      name: 'no-library-imports-top-level-src',
      comment: 'Files directly in src/ are entry points (a public barrel, say): nothing in a layer imports them.',
      severity: 'error',
      from: { path: '^(src/[^/]+/|strategies/)' },
      to: { path: '^src/[^/]+\\.[cm]?[jt]s$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench)/' },
    // Type-only imports couple folders too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
