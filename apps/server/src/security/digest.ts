import type { Database } from '../db/client.ts';

/**
 * Tables whose rows a refused call may write on purpose: a refused sign-in is counted (login_attempts), and the
 * deny-list of signed-out tokens sheds expired entries.
 */
const WRITTEN_BY_REFUSALS = new Set(['login_attempts', 'revoked_tokens', '__drizzle_migrations']);

/**
 * One fingerprint of every row of the application's tables (schema public; the job queue keeps its own schema),
 * for tests that check a refused call changed nothing.
 */
export async function databaseDigest(database: Database): Promise<string> {
  const { rows: tables } = await database.executeSql(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [],
  );
  const names = (tables as { name: string }[]).map((row) => row.name).filter((name) => !WRITTEN_BY_REFUSALS.has(name));
  const parts = names.map(
    (name) =>
      `SELECT '${name}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${name}" t`,
  );
  const { rows } = await database.executeSql(parts.join(' UNION ALL '), []);
  return (rows as { name: string; digest: string }[]).map((row) => `${row.name}:${row.digest}`).join(' ');
}
