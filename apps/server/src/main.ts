import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { generatePassword } from './auth/passwords.ts';
import { createTokenService } from './auth/tokens.ts';
import { readConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_LOGINS, seedDemo } from './seed/demo.ts';
import { seedDemoOrders } from './seed/demo-orders.ts';
import { resolveGitSha } from './system/git-sha.ts';

/** The commit a bundle was built from (scripts/build-server.ts); not defined when the server runs from its source. */
declare const __VERS_BUILT_FROM__: string | null | undefined;
const builtFrom = typeof __VERS_BUILT_FROM__ === 'string' ? __VERS_BUILT_FROM__ : undefined;

/** A value kept in a file of the data folder: read when there, else made once and written (mode 600). */
function keptInDataDir(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

// PGlite's WebAssembly (PostgreSQL) runs a great deal of code once while it boots; V8's default tiering budget
// recompiles much of it with TurboFan in the background, about half of a start's CPU. A budget 1000x larger keeps
// that boot code on the baseline compiler, while the functions a running server uses over and over still reach
// TurboFan after a few seconds of load (measured: start CPU on an existing folder ~3.0 -> ~1.8 s; 600 list calls
// cost the same server CPU either way; docs/decisions.md, "Speed"). Set before any WebAssembly is compiled.
setFlagsFromString('--wasm-tiering-budget=1800000000');

const config = readConfig();
mkdirSync(config.dataDir, { recursive: true });
const jwtSecret =
  config.jwtSecret ?? keptInDataDir(config.dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url'));
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'pglite') },
);
const demoPassword = config.demoPassword ?? keptInDataDir(config.dataDir, 'demo-password', () => generatePassword());
const seeded = await seedDemo(database.db, demoPassword);
// The bundle names the commit it was built from, without asking git at every start.
const gitSha = resolveGitSha(config.gitSha ?? builtFrom);
const app = await buildApp({
  db: database.db,
  executeSql: database.executeSql,
  tokens: createTokenService(jwtSecret, config.tokenHours),
  gitSha,
  webDist: config.webDist,
  logLevel: config.logLevel,
  maxPictureBytes: config.maxPictureBytes,
  ...(config.trustProxy ? { trustProxy: config.trustProxy } : {}),
  mail: { smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom },
  jobTiming: config.jobTiming,
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await database.close(); // PGlite writes its files on close
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// The demo wagon orders are made through the API, once, with the demo data (seed/demo-orders.ts).
if (seeded && config.demoOrders) await seedDemoOrders(app, demoPassword);
await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${config.port}/`;
const where =
  database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL server';
const logins = DEMO_LOGINS.map(
  (l) =>
    `    ${l.username.padEnd(11)} ${l.role.padEnd(26)} ${l.keeper ? `keeper ${l.keeper}, its wagons in all workshops` : (l.workshop ?? '(all workshops)')}`,
);
console.log(
  [
    '',
    `VERS is running at ${url}  (database: ${where}${seeded ? ', demo data created' : ''})`,
    `API documentation: ${url}api/docs`,
    '',
    `Demo logins (password for all: ${demoPassword}):`,
    ...logins,
    '',
  ].join('\n'),
);
