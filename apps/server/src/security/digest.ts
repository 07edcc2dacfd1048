import type { Database } from '../db/client.ts';

/**
 * A fingerprint of every application table (schema `public`; the job queue keeps its own schema), one md5 a table
 * over its rows' text in text order (as exact as key order, and needs no key), for tests that check a refused call
 * changed nothing. Leaves out `login_attempts`, and of `audit_log` the entries of failed and throttled sign-ins and
 * password changes: a refused sign-in is recorded there on purpose (any other entry a refused call wrote would show).
 * Of `notification_mails` only which mails exist: their delivery (status, attempts, reason, file, time sent) goes on
 * in the background after the call that made them, whatever a later refused call does.
 */
const REFUSALS_RECORDED_ON_PURPOSE = ` WHERE r.action NOT IN ('signIn.failed', 'signIn.throttled', 'password.throttled')`;
const MAILS_MADE = `(SELECT id, workshop_id, event_key, kind, order_id, address, language, message_id, created
  FROM public.notification_mails)`;

export async function databaseDigest(database: Database): Promise<Record<string, string>> {
  const { rows: tables } = await database.executeSql(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'login_attempts'
     ORDER BY table_name`,
    [],
  );
  const perTable = (tables as { name: string }[]).map(
    ({ name }) =>
      `SELECT '${name}' AS name, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS digest
       FROM ${name === 'notification_mails' ? MAILS_MADE : `public."${name}"`} r${
         name === 'audit_log' ? REFUSALS_RECORDED_ON_PURPOSE : ''
       }`,
  );
  const { rows } = await database.executeSql(perTable.join(' UNION ALL '), []);
  return Object.fromEntries((rows as { name: string; digest: string }[]).map((row) => [row.name, row.digest]));
}
