// Hot statements built once per place they can be kept: building a statement's text and parameters in drizzle's query
// builder costs this process more than the rest of a short statement does.
import { createHash } from 'node:crypto';
import { getTableColumns, getTableName, type Placeholder, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, preparedHome } from './db';

/** A drizzle select, insert or update builder: what `.prepare(name)` is called on. */
type Builder<R> = { prepare(name: string): { execute(values: Record<string, unknown>): Promise<R> } };

/**
 * A statement with `p(key)` placeholders for its values, run under `name` (drizzle's public `.prepare(name)`), so that
 * PostgreSQL parses and plans it once per connection. A drizzle prepared statement stays bound to the session it was
 * made on, so it is made once per place it can be kept (`preparedHome`: a store's database outside transactions, the
 * connection of a PostgreSQL transaction) and otherwise (a savepoint, a PGlite transaction) built and prepared on the
 * transaction at each run. Each shape of a statement needs a name of its own. The values of a placeholder compared
 * with a column (`eq`, `gt`) go to the driver as given: dates as ISO strings.
 */
export function reusable<V extends Record<string, unknown>, R>(name: string, build: (db: Db, p: (key: keyof V & string) => Placeholder) => Builder<R>): (db: Db, values: V) => Promise<R> {
  const p = (key: string) => sql.placeholder(key);
  const kept = new WeakMap<Db, ReturnType<Builder<R>['prepare']>>();
  return (db, values) => {
    const home = preparedHome(db);
    if (!home) return build(db, p).prepare(name).execute(values);
    let prepared = kept.get(home);
    if (!prepared) kept.set(home, (prepared = build(home, p).prepare(name)));
    return prepared.execute(values);
  };
}

/** Rows to insert into a table along with another insert (a data-modifying CTE of the same statement). */
export interface Rider {
  table: PgTable;
  rows: Record<string, unknown>[];
}

const byShape = new Map<string, ReturnType<typeof reusable<Record<string, unknown>, unknown[]>>>();
const MAX_SHAPES = 64;

/**
 * Inserts `row` into `table` with `riders` in one statement (each rider a data-modifying CTE), returning the row as
 * stored. A reusable statement per shape (the tables, how many rows each, which columns are given), named by it; a column left
 * undefined takes its default, as drizzle's own insert does. Past MAX_SHAPES distinct shapes, built every time.
 */
export async function insertWithRiders<T>(db: Db, table: PgTable, row: Record<string, unknown>, riders: Rider[] = []): Promise<T> {
  const given = (r: Record<string, unknown>) => Object.keys(r).filter((k) => r[k] !== undefined);
  const parts = [row, ...riders.flatMap((r) => r.rows)];
  const shape = [[getTableName(table), given(row).join(',')], ...riders.map((r) => [getTableName(r.table), ...r.rows.map((x) => given(x).join(','))])].map((s) => s.join(':')).join('|');
  let run = byShape.get(shape);
  if (!run && byShape.size < MAX_SHAPES) {
    // A default computed in JavaScript would be computed once, when the statement is built, and then repeated.
    for (const t of [table, ...riders.map((r) => r.table)]) {
      const computed = Object.values(getTableColumns(t)).find((c) => c.defaultFn || c.onUpdateFn);
      if (computed) throw new Error(`insertWithRiders: ${getTableName(t)}.${computed.name} has a default computed in JavaScript`);
    }
    const name = `insert_${createHash('sha1').update(shape).digest('base64url').slice(0, 20)}`;
    byShape.set(
      shape,
      (run = reusable(name, (b, p) => {
        const placeholders = (r: Record<string, unknown>, at: number) => Object.fromEntries(given(r).map((k) => [k, p(`${at}.${k}`)]));
        let at = 1;
        const ctes = riders.map((r, i) => b.$with(`rider${i}`, {}).as(b.insert(r.table).values(r.rows.map((x) => placeholders(x, at++)) as never).getSQL()));
        return (ctes.length ? b.with(...ctes) : b).insert(table).values(placeholders(row, 0) as never).returning();
      })),
    );
  }
  if (!run) {
    const ctes = riders.map((r, i) => db.$with(`rider${i}`, {}).as(db.insert(r.table).values(r.rows as never).getSQL()));
    const [inserted] = await (ctes.length ? db.with(...ctes) : db).insert(table).values(row as never).returning();
    return inserted as T;
  }
  const values: Record<string, unknown> = {};
  parts.forEach((r, at) => {
    for (const k of given(r)) values[`${at}.${k}`] = r[k];
  });
  const [inserted] = await run(db, values);
  return inserted as T;
}
