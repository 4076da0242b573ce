// Every event type: its name, when it is written, and the schema of its `data` (the OpenAPI `webhooks` section and the README list).
import { z } from '@hono/zod-openapi';
import { BankAccountSchema } from './bank-accounts';
import { CustomerSchema } from './customers';
import { DepositSchema } from './deposits';
import { TRANSACTION_STATUSES } from './transaction-constants';
import { TransactionSchema } from './transactions';

export const WebhookTestDataSchema = z
  .object({ endpointId: z.string(), message: z.string() })
  .openapi('WebhookTestData', { description: 'What POST /v2/webhook-endpoints/{id}/test sends.' });

export interface EventTypeDoc {
  name: string;
  when: string;
  data: z.ZodType;
}

const tx = (prefix: string, noun: string): EventTypeDoc[] =>
  TRANSACTION_STATUSES.map((s) => ({ name: `${prefix}.${s.toLowerCase()}`, when: `${noun} reached status ${s} (created in AWAITING_FUNDS or a later status).`, data: TransactionSchema }));

export const EVENT_TYPES: EventTypeDoc[] = [
  { name: 'customer.created', when: 'A customer was created (POST /v2/customers).', data: CustomerSchema },
  { name: 'customer.under_verification', when: "The customer's verification was submitted and is being reviewed.", data: CustomerSchema },
  { name: 'customer.approved', when: 'The customer was approved (their wallets exist from this moment).', data: CustomerSchema },
  { name: 'customer.temporary_rejection', when: 'The review asks for corrections; the customer can resubmit.', data: CustomerSchema },
  { name: 'customer.final_rejection', when: 'The customer was rejected for good.', data: CustomerSchema },
  ...tx('onramp', 'An on-ramp (fiat in, stablecoin out)'),
  ...tx('offramp', 'An off-ramp (stablecoin in, fiat out)'),
  ...tx('transfer', 'A transfer between customers'),
  { name: 'bank_account.under_verification', when: 'A bank account was registered; its holder is being verified.', data: BankAccountSchema },
  { name: 'bank_account.approved', when: "The bank account's holder was verified.", data: BankAccountSchema },
  { name: 'bank_account.final_rejection', when: "The bank account's holder was rejected.", data: BankAccountSchema },
  { name: 'deposit.confirmed', when: "Stablecoin sent to a customer's wallet on a chain that settles on-chain was credited, after the chain's confirmations.", data: DepositSchema },
  { name: 'webhook.test', when: 'POST /v2/webhook-endpoints/{id}/test (sent to that endpoint only).', data: WebhookTestDataSchema },
];

/** The body of a delivery of one event type: the event as GET /v2/events/{id} shows it. */
export const eventEnvelope = (e: EventTypeDoc) =>
  z.object({
    eventId: z.uuid(),
    eventType: z.literal(e.name),
    createdAt: z.iso.datetime(),
    data: e.data,
  });
