import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // linesmith ships TypeScript: vitest compiles it rather than handing it to Node.
    server: { deps: { inline: ['linesmith'] } },
  },
});
