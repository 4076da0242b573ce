// The transaction contract: on-ramp (fiat → stablecoin, PIX with a BR Code), off-ramp (stablecoin → a bank account), transfer.
import { z } from '@hono/zod-openapi';
import { PixIdentifierSchema, SepaIdentifierSchema, SwiftIdentifierSchema } from './bank-accounts';
import { DecimalString, Text, Uuid } from './common';
import { BlockchainSchema } from './customers';
import { CurrencySchema, QuoteSchema, RailSchema } from './exchange-rates';

import { PURPOSES, TRANSACTION_STATUSES } from './transaction-constants';

export { PURPOSES, type Purpose, TRANSACTION_STATUSES } from './transaction-constants';

export const PurposeSchema = z.enum(PURPOSES).openapi('Purpose', { description: 'PERSONAL_ACCOUNT only to a SELF bank account.' });

export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES).openapi('TransactionStatus');

const Amount = DecimalString();

export const OnRampRequestSchema = z
  .strictObject({
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
  .openapi('OnRampRequest');
export type OnRampRequest = z.infer<typeof OnRampRequestSchema>;

export const OffRampRequestSchema = z
  .strictObject({
    bankAccountId: Uuid,
    purpose: PurposeSchema,
    exchangeRateId: Uuid.optional(),
    sourceCurrency: CurrencySchema.optional().openapi({ description: 'The stablecoin' }),
    targetCurrency: CurrencySchema.optional().openapi({ description: 'The fiat of the bank account' }),
    amount: Amount.optional().openapi({ description: 'The stablecoin amount to sell' }),
    blockchain: BlockchainSchema.optional(),
    partnerFeeId: Uuid.optional(),
  })
  .openapi('OffRampRequest');
export type OffRampRequest = z.infer<typeof OffRampRequestSchema>;

export const TransferRequestSchema = z
  .strictObject({
    currency: z.enum(['USDC', 'USDT']),
    from: Uuid.openapi({ description: 'The paying customer' }),
    to: Text({ min: 1, max: 100 }).openapi({ description: 'A customer id, or an address on `blockchain`' }),
    amount: Amount,
    blockchain: BlockchainSchema.optional(),
  })
  .openapi('TransferRequest');
export type TransferRequest = z.infer<typeof TransferRequestSchema>;

// What a transaction answers with under `request` and `state.payment`, one shape per kind and rail.

/** An off-ramp's destination: the rail and the identifier of the bank account it pays. */
export const PayoutDestinationSchema = z
  .union([
    z.object({ rail: z.literal('PIX'), ...PixIdentifierSchema.shape }).strict().openapi('PixPayout'),
    z.object({ rail: z.literal('SEPA'), ...SepaIdentifierSchema.shape }).strict().openapi('SepaPayout'),
    z.object({ rail: z.literal('SWIFT'), ...SwiftIdentifierSchema.shape }).strict().openapi('SwiftPayout'),
  ])
  .openapi('PayoutDestination', { description: 'The rail and the identifier of the bank account paid.' });

/** How to pay an on-ramp: a PIX BR Code, or the bank details of a transfer on the other rails. */
export const PayInSchema = z
  .union([
    z
      .object({ rail: z.literal('PIX'), brCode: z.string().openapi({ description: 'PIX copia e cola (EMV BR Code).' }), expiresAt: z.iso.datetime() })
      .strict()
      .openapi('PixPayIn'),
    z
      .object({
        rail: z.enum(['SEPA', 'SWIFT', 'ACH', 'FEDWIRE']),
        expiresAt: z.iso.datetime(),
        beneficiary: z.string().optional(),
        iban: z.string().optional(),
        bic: z.string().optional(),
        reference: z.string().optional().openapi({ description: 'Quote it on the transfer.' }),
        amount: z.string().optional(),
        currency: z.string().optional(),
      })
      .catchall(z.string())
      .openapi('BankPayIn', { description: 'The account to pay by bank transfer; a settlement provider may add fields of its own, all strings.' }),
  ])
  .openapi('PayIn');

const RequestEcho = {
  purpose: PurposeSchema,
  exchangeRateId: Uuid.optional(),
  partnerFeeId: Uuid.optional(),
  blockchain: BlockchainSchema,
};

export const TransactionRequestSchema = z
  .union([
    z
      .object({
        customerId: Uuid,
        rail: RailSchema,
        sourceCurrency: CurrencySchema,
        sourceAmount: z.string(),
        targetCurrency: CurrencySchema,
        payment: z.object({ rail: RailSchema }).strict(),
        ...RequestEcho,
      })
      .strict()
      .openapi('OnRampRequestEcho'),
    z
      .object({
        bankAccountId: Uuid,
        sourceCurrency: CurrencySchema,
        targetCurrency: CurrencySchema,
        amount: z.string(),
        payment: PayoutDestinationSchema,
        ...RequestEcho,
      })
      .strict()
      .openapi('OffRampRequestEcho'),
    z
      .object({ currency: z.enum(['USDC', 'USDT']), from: Uuid, to: z.string(), amount: z.string(), blockchain: BlockchainSchema })
      .strict()
      .openapi('TransferRequestEcho'),
  ])
  .openapi('TransactionRequest', { description: 'The request as the transaction took it: the quote\'s currencies and amount, `purpose`, and `payment` (on-ramp `{rail}`, off-ramp the destination).' });

export const TransactionSchema = z
  .object({
    id: Uuid,
    customerId: Uuid,
    type: z.enum(['ON_RAMP', 'OFF_RAMP', 'TRANSFER']),
    // Documented per kind; typed as the stored record the presenters build it from.
    request: TransactionRequestSchema as unknown as z.ZodType<Record<string, unknown>>,
    quote: QuoteSchema.optional().openapi({ description: 'The priced conversion (on-ramp, off-ramp).' }),
    blockchain: BlockchainSchema,
    state: z.object({
      status: TransactionStatusSchema,
      payment: (z.union([PayInSchema, PayoutDestinationSchema]) as unknown as z.ZodType<Record<string, unknown>>)
        .optional()
        .openapi({ description: 'On-ramp: how to pay it (PixPayIn, BankPayIn). Off-ramp: the destination (PayoutDestination). None on a transfer.' }),
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
/** What the browser sends to /bff/transactions/transfer: the session is the sender, and `to` an outside address. */
export type BffTransferRequest = Omit<TransferRequest, 'from'>;
