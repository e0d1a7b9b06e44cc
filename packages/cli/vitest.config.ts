import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A test runs the real CLI a few times, each a node process loading the whole CLI; on a busy machine
    // that takes seconds a run. A run that hangs fails sooner (45 s), naming the command.
    testTimeout: 90_000,
  },
});
