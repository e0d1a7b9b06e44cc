import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One team for the whole package, started before any file and stopped after the last.
    globalSetup: ['test/support/global-setup.ts'],
    // Each file is one peer framework's client; they share the supervisor, so they may run together.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/table-reporter.ts'],
  },
});
