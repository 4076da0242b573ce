// Hot statements built once. drizzle's query builder spends ~100 µs of CPU building a statement's text and parameters,
// more than the rest of a short statement costs this process; under load that is a fifth of the server's CPU.
import { createHash } from 'node:crypto';
import { getTableColumns, getTableName, type Placeholder, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './db';

/** What a drizzle query builder hands its session to make a prepared query (text and parameters, fields, name, …). */
type PrepareArgs = unknown[];
type PreparedQuery<R> = { execute(values: Record<string, unknown>): Promise<R>; joinsNotNullableMap?: unknown };
type Session = { prepareQuery(...args: PrepareArgs): PreparedQuery<unknown> };
/** A drizzle select, insert or update builder (all have `_prepare`, which builds the SQL and asks the session). */
type Builder<R> = { execute: (...a: never[]) => Promise<R> };

/**
 * A statement whose SQL is built once, with `p(key)` placeholders for its values, the first time it runs; every run
 * after that hands the built text and parameters to the session of the `db` it runs on (the database itself, a
 * transaction, or the ambient transaction behind a store's `db`) under `name`, so PostgreSQL also parses and plans it
 * once per connection (and PGlite once, outside transactions). Each shape of a statement needs a name of its own.
 * The values of a placeholder compared with a column (`eq`, `gt`) go to the driver as given: dates as ISO strings.
 */
export function reusable<V extends Record<string, unknown>, R>(name: string, build: (db: Db, p: (key: keyof V & string) => Placeholder) => Builder<R>): (db: Db, values: V) => Promise<R> {
  let recorded: { args: PrepareArgs; joins: unknown } | undefined;
  return (db, values) => {
    recorded ??= record(build(db, (key) => sql.placeholder(key)), name);
    const session = (db as unknown as { session: Session }).session;
    const query = session.prepareQuery(...recorded.args) as PreparedQuery<R>;
    if (recorded.joins !== undefined) query.joinsNotNullableMap = recorded.joins;
    return query.execute(values);
  };
}

/** Lets `builder` prepare itself against a session that only keeps what it was given. */
function record(builder: unknown, name: string): { args: PrepareArgs; joins: unknown } {
  let args: PrepareArgs | undefined;
  const made = { setToken: () => made } as { setToken: () => unknown; joinsNotNullableMap?: unknown };
  const b = builder as { session: unknown; _prepare(name: string): typeof made };
  b.session = {
    prepareQuery: (...a: PrepareArgs) => {
      args = a;
      return made;
    },
  };
  b._prepare(name);
  if (!args) throw new Error(`reusable statement ${name}: the builder did not prepare`);
  return { args, joins: made.joinsNotNullableMap };
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
 * stored. Built once per shape (the tables, how many rows each, which columns are given) and named by it; a column left
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
