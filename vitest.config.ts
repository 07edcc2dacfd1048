import { defineConfig } from 'vitest/config';

/*
 * Tests wait for states, never for a fixed time: every wait (a test, a hook, `expect.poll`, Playwright's actions in
 * e2e/support/browser.ts) has one generous bound, set here, so that a machine busy with other work (the test command
 * passes beside a CPU burner at twice the cores, scripts/load.sh) slows the tests without failing them. A bound is
 * reached only when the awaited state never comes.
 */
const WAIT = {
  /** A unit test of pure rules. */
  unit: 60_000,
  /** A test against a real server in this process, or a real browser against the product. */
  integration: 300_000,
  /** How long `expect.poll` waits for a state. */
  poll: 90_000,
} as const;

const expect = { poll: { timeout: WAIT.poll, interval: 100 } };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          root: 'packages/domain',
          include: ['src/**/*.test.ts'],
          testTimeout: WAIT.unit,
          expect,
        },
      },
      { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'], testTimeout: WAIT.unit, expect } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/offline/restore.test.ts'],
          environment: 'jsdom',
          testTimeout: WAIT.integration,
          hookTimeout: WAIT.integration,
          expect,
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
          testTimeout: WAIT.integration,
          hookTimeout: WAIT.integration,
          expect,
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          testTimeout: WAIT.integration,
          hookTimeout: WAIT.integration,
          expect,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['./global-setup.ts'],
          setupFiles: ['./support/csp-check.ts'],
          testTimeout: WAIT.integration,
          hookTimeout: WAIT.integration,
          fileParallelism: false,
          expect,
        },
      },
    ],
  },
});
