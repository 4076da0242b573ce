// The OpenAPI 3.1 `webhooks` section: one entry per event type, with its body and the signature headers a receiver checks.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '@hono/zod-openapi';
import { EVENT_TYPES, eventEnvelope } from '../../src/contract/webhook-events';

const headers = z.object({
  'webhook-id': z.string().openapi({ description: 'The event id: the same on every attempt and redelivery (dedupe by it).' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed; refuse one more than 5 minutes off.' }),
  'webhook-signature': z.string().openapi({ description: 'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded secret after `whsec_` (Standard Webhooks). Two entries while a rotated secret is in its grace period.' }),
  'x-hub-signature': z.string().openapi({ description: '`sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the whole current secret string (`whsec_…`, UTF-8).' }),
});

/** `bank_account.under_verification` → `bankAccountUnderVerificationWebhook`: unique, and apart from every /v2 operation's. */
export const webhookOperationId = (event: string): string =>
  event.split(/[._]/).map((w, i) => (i ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join('') + 'Webhook';

export function registerEventWebhooks(registry: OpenAPIRegistry): void {
  for (const e of EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: e.name,
      operationId: webhookOperationId(e.name),
      tags: ['Webhooks'],
      summary: e.when,
      description: `\`data\`: ${e.dataIs}\n\nSent to each enabled endpoint subscribed to \`${e.name}\` (or a prefix of it). At least once, retried with backoff for about three days until a 2xx answer. Payloads carry no credentials: a customer comes without \`verification.link\`.`,
      request: { headers, body: { required: true, content: { 'application/json': { schema: eventEnvelope(e) } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery; anything else (or no answer within the timeout) is retried.' } },
    });
  }
}
