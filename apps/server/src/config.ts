import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  demoPassword: string | undefined;
  jwtSecret: string | undefined;
  /** Folder of the built web app; served when it exists. */
  webDist: string;
  tokenHours: number;
  gitSha: string | undefined;
  logLevel: string;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: positiveInt('PORT', env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.VERS_DATA_DIR ?? './data'),
    demoPassword: env.VERS_DEMO_PASSWORD || undefined,
    jwtSecret: env.VERS_JWT_SECRET || undefined,
    webDist: path.resolve(env.VERS_WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    tokenHours: positiveInt('VERS_TOKEN_HOURS', env.VERS_TOKEN_HOURS, 12),
    gitSha: env.VERS_GIT_SHA || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
