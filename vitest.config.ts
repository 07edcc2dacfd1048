import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'] } },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['./global-setup.ts'],
          setupFiles: ['./support/csp-check.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
