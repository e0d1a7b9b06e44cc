import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts a whole system (four or more services, CLIs, a model server): one at a time, so
    // they do not starve each other of CPU and trip the hop timeouts they test.
    fileParallelism: false,
    // Room for a busy machine; the helpers' own deadlines (a service ready within 90 s, a CLI run within
    // 45 s) are shorter, so what hangs is named rather than cut off by a bare timeout.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
