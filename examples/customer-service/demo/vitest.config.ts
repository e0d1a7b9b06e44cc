import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each run of the demo is its own process starting four more; on a busy machine that takes a while.
    testTimeout: 60_000,
  },
});
