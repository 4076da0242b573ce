// The `{id}` path parameter of the customer sub-resources, and the lookup every one of them starts with.
import { z } from '@hono/zod-openapi';
import { Uuid } from '../../src/contract/common';

export const CustomerIdParam = z.object({ id: Uuid.openapi({ param: { name: 'id', in: 'path' } }) });

export { findCustomer } from '../flows/customers';
