// The partner an API key belongs to, as `GET /v2/partner` answers it: lets a backend (or a pure BFF) learn whose key it holds.
import { z } from '@hono/zod-openapi';
import { Uuid } from './common';

export const PartnerSchema = z
  .object({
    id: Uuid,
    name: z.string().openapi({ example: 'Acme Wallet' }),
    environment: z.enum(['sandbox', 'production']),
    createdAt: z.iso.datetime(),
  })
  .openapi('Partner');
export type Partner = z.infer<typeof PartnerSchema>;
