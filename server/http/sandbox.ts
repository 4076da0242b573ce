// /v2/sandbox: helpers that exist only when RAMP_ENV=sandbox (the router does not mount them in production).
import { createRoute, z } from '@hono/zod-openapi';
import { generateApiKey } from '../domain/api-keys';
import { createPartner } from '../store/queries/partners';
import type { Deps } from './deps';
import { openApiApp, problems } from './openapi-app';

const CreatePartnerSchema = z.object({ name: z.string().trim().min(1).max(200).openapi({ example: 'Acme Wallet' }) }).strict().openapi('SandboxCreatePartner');
const SandboxPartnerSchema = z
  .object({ partnerId: z.uuid(), apiKey: z.string().openapi({ example: 'sk_sandbox_…' }) })
  .openapi('SandboxPartner', { description: 'The new partner and its API key, shown only this once.' });

const createPartnerRoute = createRoute({
  operationId: 'sandboxCreatePartner',
  method: 'post',
  path: '/sandbox/partners',
  tags: ['Sandbox'],
  summary: 'Create another partner with its own API key (sandbox only)',
  request: { body: { required: true, content: { 'application/json': { schema: CreatePartnerSchema } } } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: SandboxPartnerSchema } } },
    ...problems(400, 401),
  },
});

export function sandboxApp(deps: Deps) {
  return openApiApp().openapi(createPartnerRoute, async (c) => {
    const { name } = c.req.valid('json');
    const apiKey = generateApiKey('sandbox');
    const { partnerId } = await createPartner(deps.store.db, name, apiKey);
    return c.json({ partnerId, apiKey }, 201);
  });
}
