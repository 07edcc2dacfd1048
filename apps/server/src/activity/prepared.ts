import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

const dialect = new PgDialect();

/**
 * A raw statement built once, whose values are `sql.placeholder`s filled per call: no query building per call, and
 * on PostgreSQL a named statement each connection parses and plans once. Answers the driver's rows (column names,
 * values as the driver gives them: timestamps as text), as `db.execute` does. Outside transactions only.
 */
export function preparedStatement<Row = Record<string, unknown>>(db: Db, name: string, statement: SQL) {
  const query = db._.session.prepareQuery(dialect.sqlToQuery(statement), undefined, name, false);
  return async (values: Record<string, unknown>): Promise<Row[]> =>
    ((await query.execute(values)) as { rows: Row[] }).rows;
}
