// Every event type: its name, when it is written, and the schema of its `data` (the OpenAPI `webhooks` section and the list in docs/webhooks.md).
import { z } from '@hono/zod-openapi';
import { BankAccountSchema } from './bank-accounts';
import { CustomerEventSchema } from './customers';
import { DepositSchema } from './deposits';
import { TRANSACTION_STATUSES } from './transaction-constants';
import { TransactionSchema } from './transactions';
import { EVENT_TYPES as EMITTED, WebhookEndpointSchema } from './webhooks';

export const WebhookTestDataSchema = z
  .object({ endpointId: z.string(), message: z.string() })
  .openapi('WebhookTestData', { description: 'What POST /v2/webhook-endpoints/{id}/test sends.' });

export interface EventTypeDoc {
  name: string;
  when: string;
  /** What `data` is, in words (the OpenAPI entry's description of it). */
  dataIs: string;
  data: z.ZodType;
}

const CUSTOMER = 'The customer (CustomerEvent): as GET /v2/customers/{id} shows it right after the change, without `verification.link` (a bearer link, minted only on a read), wallet `balances` or `transactionLimits`.';
const TRANSACTION = 'The transaction (Transaction): as GET /v2/transactions/{id} shows it right after the change.';
const BANK_ACCOUNT = 'The bank account (BankAccount): as GET /v2/bank-accounts/{id} shows it right after the change.';

const customer = (s: string, when: string): EventTypeDoc => ({ name: `customer.${s}`, when, dataIs: CUSTOMER, data: CustomerEventSchema });

// The transaction events the service emits (EVENT_TYPES of ./webhooks): a status a type never reaches has no event.
const tx = (prefix: string, noun: string): EventTypeDoc[] =>
  TRANSACTION_STATUSES.filter((s) => (EMITTED as readonly string[]).includes(`${prefix}.${s.toLowerCase()}`)).map((s) => ({
    name: `${prefix}.${s.toLowerCase()}`,
    when: `${noun} reached status ${s} (created in AWAITING_FUNDS or a later status).`,
    dataIs: TRANSACTION,
    data: TransactionSchema,
  }));

export const EVENT_TYPES: EventTypeDoc[] = [
  customer('created', 'A customer was created (POST /v2/customers).'),
  customer('under_verification', "The customer's verification was submitted and is being reviewed."),
  customer('approved', 'The customer was approved (their wallets exist from this moment).'),
  customer('temporary_rejection', 'The review asks for corrections; the customer can resubmit.'),
  customer('final_rejection', 'The customer was rejected for good.'),
  ...tx('onramp', 'An on-ramp (fiat in, stablecoin out)'),
  ...tx('offramp', 'An off-ramp (stablecoin in, fiat out)'),
  ...tx('transfer', 'A transfer between customers'),
  { name: 'bank_account.under_verification', when: 'A bank account was registered; its holder is being verified.', dataIs: BANK_ACCOUNT, data: BankAccountSchema },
  { name: 'bank_account.approved', when: "The bank account's holder was verified.", dataIs: BANK_ACCOUNT, data: BankAccountSchema },
  { name: 'bank_account.final_rejection', when: "The bank account's holder was rejected.", dataIs: BANK_ACCOUNT, data: BankAccountSchema },
  {
    name: 'deposit.confirmed',
    when: "Stablecoin sent to a customer's wallet on a chain that settles on-chain was credited, after the chain's confirmations.",
    dataIs: 'The credited deposit (Deposit).',
    data: DepositSchema,
  },
  {
    name: 'webhook_endpoint.paused',
    when: 'The service paused one of your endpoints after a run of failed attempts (RAMP_WEBHOOK_PAUSE_AFTER); its pending deliveries wait, new events skip it, until PATCH /v2/webhook-endpoints/{id} `enabled: true` resumes it. Sent to your other endpoints.',
    dataIs: 'The paused endpoint (WebhookEndpoint): as GET /v2/webhook-endpoints/{id} shows it, `enabled: false` with `disabledReason`. Never its secret.',
    data: WebhookEndpointSchema,
  },
  {
    name: 'webhook.test',
    when: 'POST /v2/webhook-endpoints/{id}/test (sent to that endpoint only).',
    dataIs: 'WebhookTestData: the endpoint\'s id and a fixed message.',
    data: WebhookTestDataSchema,
  },
];

/** The documented entry of an event type; undefined for a type the service does not send. */
export const eventTypeDoc = (name: string): EventTypeDoc | undefined => EVENT_TYPES.find((e) => e.name === name);

/** The body of a delivery of one event type: the event as GET /v2/events/{id} shows it. */
export const eventEnvelope = (e: EventTypeDoc) =>
  z.object({
    eventId: z.uuid(),
    eventType: z.literal(e.name),
    customerId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    data: e.data,
  });
