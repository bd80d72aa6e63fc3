import { defineConfig } from 'vitest/config';

// `npm run stress`: long, load-bearing reliability checks (bounded in time and count, loopback only).
export default defineConfig({
  test: {
    include: ['test/stress/**/*.stress.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
