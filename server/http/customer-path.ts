// The `{id}` path parameter of the customer sub-resources, and the lookup every one of them starts with.
import { z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';
import { notFound } from '../domain/errors';
import type { Db } from '../store/db';
import { type CustomerRow, getCustomer } from '../store/queries/customers';

export const CustomerIdParam = z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' } }) });

export async function findCustomer(db: Db, partnerId: string, id: string): Promise<CustomerRow> {
  const row = await getCustomer(db, partnerId, id);
  if (!row) throw notFound('Customer');
  return row;
}
