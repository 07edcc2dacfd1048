import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/offline/restore.test.ts'],
          environment: 'jsdom',
        },
      },
      // The browser's sync code against a server restored from a backup: runs with the server suite, on PGlite and
      // on PostgreSQL (TEST_DATABASE_URL).
      {
        test: {
          name: 'web-server',
          root: 'apps/web',
          include: ['src/offline/restore.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
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
