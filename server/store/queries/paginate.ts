// Keyset pagination over UUIDv7 ids, newest first: the one implementation of the list contract every resource uses.
import { and, asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Pagination } from '../../../src/contract/common';
import { invalid } from '../../domain/errors';
import { isUuid } from '../../ids';
import type { Db } from '../db';

type Direction = 'next' | 'prev';

/** Cursors are opaque (`n.<id>` / `p.<id>`, base64url); a bare id is accepted as "items older than this one". */
export function encodeCursor(direction: Direction, id: string): string {
  return Buffer.from(`${direction === 'next' ? 'n' : 'p'}.${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { direction: Direction; id: string } {
  if (isUuid(cursor)) return { direction: 'next', id: cursor.toLowerCase() };
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^([np])\.([0-9a-f-]{36})$/.exec(raw);
  if (!m || !isUuid(m[2]!)) throw invalid([{ path: 'query.cursor', message: 'is not a cursor this API returned' }]);
  return { direction: m[1] === 'n' ? 'next' : 'prev', id: m[2]! };
}

export async function paginate<T extends { id: string }>(
  db: Db,
  table: PgTable & { id: PgColumn },
  where: SQL | undefined,
  opts: { size: number; cursor?: string },
  map?: (rows: unknown[]) => T[],
): Promise<{ data: T[]; pagination: Pagination }> {
  const { size } = opts;
  const cursor = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const bound = cursor ? (cursor.direction === 'next' ? lt(table.id, cursor.id) : gt(table.id, cursor.id)) : undefined;
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(and(where, bound))
    .orderBy(cursor?.direction === 'prev' ? asc(table.id) : desc(table.id))
    .limit(size + 1)) as { id: string }[];
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (cursor?.direction === 'prev') page.reverse();
  const hasNextPage = cursor?.direction === 'prev' ? true : more;
  const hasPreviousPage = cursor ? (cursor.direction === 'prev' ? more : true) : false;
  const data = map ? map(page) : (page as unknown as T[]);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    data,
    pagination: {
      size,
      hasNextPage: hasNextPage && !!last,
      hasPreviousPage: hasPreviousPage && !!first,
      nextCursor: hasNextPage && last ? encodeCursor('next', last.id) : null,
      previousCursor: hasPreviousPage && first ? encodeCursor('prev', first.id) : null,
    },
  };
}
