// Widget sessions: what a partner's backend asks for, and what the browser gets (a short-lived token, never the API key).
import { z } from '@hono/zod-openapi';
import { NoControlCharacters, Uuid } from './common';
import { CustomerSchema, ExternalUserId } from './customers';

export const CreateWidgetSessionSchema = z
  .strictObject({
    customerId: Uuid.optional().openapi({ description: 'Omit for an onboarding session: it may create one customer and is then bound to it.' }),
    externalUserId: ExternalUserId.optional().openapi({
      description:
        'Your own id for the signed-in user, instead of `customerId`. When one of your customers has it, the session is bound to that customer; otherwise it is an onboarding session whose customer is created with it, so the next session for the user (a reload, a renewal) finds it.',
    }),
    allowedOrigins: z
      .array(z.url({ protocol: /^https?$/ }).max(2048).refine(NoControlCharacters.test, NoControlCharacters.message).transform((u) => new URL(u).origin))
      .max(10)
      .optional()
      .openapi({ description: 'Origins allowed to use the session from a browser (CORS).', example: ['https://shop.example.com'] }),
    expiresIn: z.number().int().min(60).max(3600).default(900).openapi({ description: 'Seconds, 60 to 3600.', example: 900 }),
  })
  .openapi('CreateWidgetSession');

export const WidgetSessionSchema = z
  .object({
    token: z.string(),
    expiresAt: z.iso.datetime(),
    customerId: Uuid.nullable(),
  })
  .openapi('WidgetSession');

export type WidgetSession = z.infer<typeof WidgetSessionSchema>;

/** What `POST /bff/customers` answers: the customer and a session now bound to it (use it from here on). */
export const BffCustomerCreatedSchema = z.object({ customer: CustomerSchema, session: WidgetSessionSchema });
export type BffCustomerCreated = z.infer<typeof BffCustomerCreatedSchema>;
