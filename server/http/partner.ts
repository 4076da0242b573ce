// /v2/partner: who the calling API key belongs to. A pure BFF reads it to accept only its own partner's widget sessions.
import { createRoute } from '@hono/zod-openapi';
import { PartnerSchema } from '../../src/contract/partner';
import { readPartner } from '../flows/partners';
import type { Deps } from '../deps';
import { openApiApp, problems } from './openapi-app';

const getPartnerRoute = createRoute({
  operationId: 'getPartner',
  method: 'get',
  path: '/partner',
  tags: ['Partner'],
  summary: 'The partner this API key belongs to',
  responses: {
    200: { description: 'The partner', content: { 'application/json': { schema: PartnerSchema } } },
    ...problems(401),
  },
});

export function partnerApp(deps: Deps) {
  return openApiApp().operation(getPartnerRoute, async (c) => {
    const row = await readPartner(c.var.db, c.get('partnerId'));
    return c.json({ id: row.id, name: row.name, environment: deps.config.RAMP_ENV, createdAt: row.createdAt.toISOString() }, 200);
  });
}
