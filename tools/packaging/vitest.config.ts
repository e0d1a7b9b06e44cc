import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Packing every package and an npm install (a cold npm cache downloads Node 24 and the registry's
    // dependencies); the helpers' own deadlines are shorter, so what hangs is named.
    hookTimeout: 300_000,
  },
});
