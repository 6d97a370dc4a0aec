// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * ESLint's and typescript-eslint's recommended rules, without type information: the
 * type-aware set (recommendedTypeChecked) builds the whole TypeScript program and took
 * four times as long on this tree (54 s against 15 s of CPU), so `npm run typecheck`
 * stays the type gate. Formatting is Prettier's (`npm run format:check`), not ESLint's.
 */
export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'backtest-report/', 'reports/', 'recordings/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      // A `let` assigned once but read earlier, in a callback set up before the assignment
      // (a socket's close handler that may run before the subscriber exists), must stay `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `_`-prefixed names are the usual way to say "deliberately unused" (a destructured
      // field left out of a rest, a callback's leading parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read the simulator's JSON answers and socket frames by path and pin them with
      // assertions, and test/contract checks every answer against the published schemas;
      // typing each body would restate those schemas. src, strategies and bench keep the rule.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
