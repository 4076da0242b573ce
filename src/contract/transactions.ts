// The transaction contract: on-ramp (fiat → stablecoin, PIX with a BR Code), off-ramp (stablecoin → a bank account), transfer.
import { z } from '@hono/zod-openapi';
import { DecimalString, Text, Uuid } from './common';
import { BlockchainSchema } from './customers';
import { CurrencySchema, QuoteSchema, RailSchema } from './exchange-rates';

import { PURPOSES, TRANSACTION_STATUSES } from './transaction-constants';

export { PURPOSES, type Purpose, TRANSACTION_STATUSES } from './transaction-constants';

export const PurposeSchema = z.enum(PURPOSES).openapi('Purpose', { description: 'PERSONAL_ACCOUNT only to a SELF bank account.' });

export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES).openapi('TransactionStatus');

const Amount = DecimalString();

export const OnRampRequestSchema = z
  .object({
    customerId: Uuid,
    purpose: PurposeSchema,
    rail: RailSchema.optional().openapi({ description: 'Since v2.0.0 at request level; `payment.rail` is still accepted.' }),
    payment: z.object({ rail: RailSchema }).strict().optional().openapi({ description: 'Deprecated placement of the rail.' }),
    exchangeRateId: Uuid.optional().openapi({ description: 'A LOCKED quote of this customer; then currencies and amount come from it.' }),
    sourceCurrency: CurrencySchema.optional(),
    targetCurrency: CurrencySchema.optional(),
    sourceAmount: Amount.optional(),
    blockchain: BlockchainSchema.optional(),
    partnerFeeId: Uuid.optional(),
  })
  .strict()
  .openapi('OnRampRequest');
export type OnRampRequest = z.infer<typeof OnRampRequestSchema>;

export const OffRampRequestSchema = z
  .object({
    bankAccountId: Uuid,
    purpose: PurposeSchema,
    exchangeRateId: Uuid.optional(),
    sourceCurrency: CurrencySchema.optional().openapi({ description: 'The stablecoin' }),
    targetCurrency: CurrencySchema.optional().openapi({ description: 'The fiat of the bank account' }),
    amount: Amount.optional().openapi({ description: 'The stablecoin amount to sell' }),
    blockchain: BlockchainSchema.optional(),
    partnerFeeId: Uuid.optional(),
  })
  .strict()
  .openapi('OffRampRequest');
export type OffRampRequest = z.infer<typeof OffRampRequestSchema>;

export const TransferRequestSchema = z
  .object({
    currency: z.enum(['USDC', 'USDT']),
    from: Uuid.openapi({ description: 'The paying customer' }),
    to: Text({ min: 1, max: 100 }).openapi({ description: 'A customer id, or an address on `blockchain`' }),
    amount: Amount,
    blockchain: BlockchainSchema.optional(),
  })
  .strict()
  .openapi('TransferRequest');
export type TransferRequest = z.infer<typeof TransferRequestSchema>;

export const TransactionSchema = z
  .object({
    id: Uuid,
    customerId: Uuid,
    type: z.enum(['ON_RAMP', 'OFF_RAMP', 'TRANSFER']),
    request: z.record(z.string(), z.unknown()).openapi({ description: 'Echo of the request, with `purpose` and `payment` (on-ramp `{rail}`; off-ramp the destination `{rail, keyType, keyValue}` or the SEPA/SWIFT identifier of the bank account).' }),
    quote: QuoteSchema.optional().openapi({ description: 'The priced conversion (on-ramp, off-ramp).' }),
    blockchain: BlockchainSchema,
    state: z.object({
      status: TransactionStatusSchema,
      payment: z.record(z.string(), z.unknown()).optional().openapi({ description: 'On-ramp PIX: `{rail, brCode, expiresAt}`. Off-ramp: `{rail, keyType, keyValue}` (or the SEPA/SWIFT identifier).' }),
      receipt: z
        .object({ transactionHash: z.string(), blockExplorerUrl: z.string(), targetAmount: z.string().optional() })
        .optional(),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
      estimatedSettlementAt: z.iso.datetime().optional(),
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Transaction');
export type Transaction = z.infer<typeof TransactionSchema>;

/** What the browser sends to /bff/transactions/on-ramp: the session decides the customer. */
export type BffOnRampRequest = Omit<OnRampRequest, 'customerId' | 'partnerFeeId'>;
export type BffOffRampRequest = Omit<OffRampRequest, 'partnerFeeId'>;
