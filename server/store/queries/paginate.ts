// Keyset pagination over UUIDv7 ids, newest first: the one implementation of the list contract every resource uses.
import { and, asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Pagination } from '../../../src/contract/common';
import { invalid } from '../../domain/errors';
import { isUuid } from '../../ids';
import type { Db } from '../db';

/**
 * Cursors are uuids, as the spec types them: a cursor is always "the items after this id, in list order (newest first)".
 * `nextCursor` is the last item's id; `previousCursor` is the id just above the previous page (the item `size + 1` places
 * before this page's first), or the max uuid `ffffffff-ffff-ffff-ffff-ffffffffffff` when the previous page is the first
 * page. So either one, passed back as `cursor`, answers the page it names, and the direction needs no second parameter.
 */
export const TOP_CURSOR = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export function decodeCursor(cursor: string): string {
  if (!isUuid(cursor)) throw invalid([{ path: 'query.cursor', message: 'is not a cursor this API returned (a uuid)', code: 'INVALID_FORMAT' }]);
  return cursor.toLowerCase();
}

export async function paginate<T extends { id: string }>(
  db: Db,
  table: PgTable & { id: PgColumn },
  where: SQL | undefined,
  opts: { size: number; cursor?: string },
  map?: (rows: unknown[]) => T[],
): Promise<{ data: T[]; pagination: Pagination }> {
  const { size } = opts;
  const after = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(and(where, after ? lt(table.id, after) : undefined))
    .orderBy(desc(table.id))
    .limit(size + 1)) as { id: string }[];
  const page = rows.slice(0, size);
  const first = page[0];
  const last = page[page.length - 1];
  // What lies before this page (newer): at most size + 1 ids, to know whether there is a previous page and where it starts.
  // One query at a time: `db` may be a transaction's single connection.
  const newer = after
    ? ((await db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(and(where, gt(table.id, first ? first.id : after)))
        .orderBy(asc(table.id))
        .limit(size + 1)) as { id: string }[])
    : [];
  const hasNextPage = rows.length > size && !!last;
  const hasPreviousPage = newer.length > 0;
  const data = map ? map(page) : (page as unknown as T[]);
  return {
    data,
    pagination: {
      size,
      hasNextPage,
      hasPreviousPage,
      nextCursor: hasNextPage ? last!.id : null,
      previousCursor: hasPreviousPage ? (newer.length > size ? newer[size]!.id : TOP_CURSOR) : null,
    },
  };
}
