import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Checks every simulator HTTP answer against the exchange's published API description
    // (it loads the check only in files whose simulator answers something).
    setupFiles: ['test/contract/response-tap.setup.ts'],
    // One temporary directory per run, removed with everything tests left in it.
    globalSetup: ['test/support/temp-root.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files share a worker's module cache: every file imports the same simulator, client
    // and runtime, and loading them per file was 157 s of the suite's 416 s (17 s without).
    // Tests hold their state in what they start, never in module globals.
    isolate: false,
    // One worker per core. Vitest's default leaves a core to its main process, which is idle
    // while files run: on a 2-core CI machine that is one worker, and many files spend
    // their time waiting on sockets and a sped-up clock rather than computing.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
