import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../src/http/openapi-document.ts';

/**
 * Lints the OpenAPI document the server serves (/api/docs/json) with Redocly CLI and the repository's redocly.yaml:
 * builds the app on an in-memory database (nothing listens), writes the document to a temporary file and runs
 * `redocly lint` on it. Exits with Redocly's code: non-zero on any problem.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
const dir = mkdtempSync(path.join(tmpdir(), 'vers-openapi-'));
try {
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await openApiDocument(), null, 2));
  const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml')], {
    stdio: 'inherit',
    // No usage data sent, no update check: the linter reaches no one.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
