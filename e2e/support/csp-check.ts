import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser.ts';

// Every end-to-end test fails when a page it opened broke the server's Content-Security-Policy: the built app
// must run under the policy it is served with.
afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
