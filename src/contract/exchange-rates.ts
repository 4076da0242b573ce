// The quote contract: floating (indicative) and locked (single-use, until expiresAt) exchange rates, and partner fees.
import { z } from '@hono/zod-openapi';
import { DecimalString, Text, Uuid } from './common';
import { BlockchainSchema } from './customers';

export const CurrencySchema = z.enum(['BRL', 'USD', 'EUR', 'USDC', 'USDT']).openapi('Currency');
export const RailSchema = z.enum(['PIX', 'SEPA', 'SWIFT', 'ACH', 'FEDWIRE']).openapi('Rail');
export const TimeLockSchema = z.enum(['30s', '1m', '5m']).openapi('TimeLock', { description: '`30s` is free (default); `1m` and `5m` add a premium to the service fee.' });

/** Amounts are strings; their format and decimals are checked by the pricing rules (BRL/USD/EUR 2, USDC/USDT 6). */
const Amount = DecimalString().openapi({ example: '1000.00' });

export const QuoteRequestSchema = z
  .strictObject({
    customerId: Uuid.optional().openapi({ description: 'Required for FLOATING. Optional for LOCKED: a lock without a customer is bound to the customer of its first (only) use.' }),
    type: z.enum(['FLOATING', 'LOCKED']),
    rail: RailSchema.optional().openapi({ description: "Required for FLOATING. Optional for LOCKED: default the fiat's usual rail (BRL PIX, EUR SEPA, USD SWIFT)." }),
    sourceCurrency: CurrencySchema,
    targetCurrency: CurrencySchema,
    sourceAmount: Amount.optional().openapi({ description: 'Required for FLOATING. For LOCKED give sourceAmount, targetAmount or both.' }),
    targetAmount: Amount.optional().openapi({
      description:
        'LOCKED only. Alone: the exact final amount wanted (the source is solved for). With sourceAmount: the least final amount accepted; the source prices the quote, and a guaranteed finalTargetAmount below it answers 422 TARGET_AMOUNT_NOT_GUARANTEED with `guaranteedTargetAmount`.',
    }),
    blockchain: BlockchainSchema.optional().openapi({ description: 'Default: the service default blockchain. The response names the one used.' }),
    partnerFeeId: Uuid.optional(),
    timeLock: TimeLockSchema.optional(),
  })
  .openapi('QuoteRequest');
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

export const FeeSchema = z
  .object({
    rate: z.string().openapi({ description: 'Basis points', example: '50' }),
    flatAmount: z.string(),
    totalAmount: z.string(),
    currency: CurrencySchema,
  })
  .openapi('Fee');

export const QuoteSchema = z
  .object({
    id: Uuid.optional().openapi({ description: 'LOCKED only: the exchangeRateId to pass to a transaction.' }),
    type: z.enum(['FLOATING', 'LOCKED']),
    customerId: Uuid.optional().openapi({ description: 'Absent on a LOCKED quote made without a customer (bound at its first use).' }),
    rail: RailSchema,
    blockchain: BlockchainSchema,
    sourceCurrency: CurrencySchema,
    sourceAmount: z.string(),
    targetCurrency: CurrencySchema,
    baseTargetAmount: z.string(),
    baseExchangeRate: z.string(),
    fees: z.object({ service: FeeSchema, partner: FeeSchema }),
    finalTargetAmount: z.string().openapi({ description: 'Guaranteed until expiresAt for a LOCKED quote.' }),
    finalExchangeRate: z.string(),
    partnerFeeId: Uuid.nullable().optional(),
    timeLock: TimeLockSchema.optional(),
    expiresAt: z.iso.datetime().optional(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Quote');
export type Quote = z.infer<typeof QuoteSchema>;

/** What the browser sends to /bff/exchange-rates: the session decides the customer; the widget always names the rail. */
export type BffQuoteRequest = Omit<QuoteRequest, 'customerId' | 'partnerFeeId' | 'rail'> & { rail: NonNullable<QuoteRequest['rail']> };

const FeeRuleSchema = z.object({ rate: DecimalString().openapi({ example: '25', description: 'Basis points' }), flatAmount: DecimalString().openapi({ example: '0' }) }).strict();

export const CreatePartnerFeeSchema = z
  .strictObject({
    name: Text({ min: 1, max: 200 }).openapi({ example: 'Marketplace fee' }),
    walletAddress: Text({ min: 1, max: 100 }).openapi({ description: 'Where the partner receives its fees; validated for `blockchain`.' }),
    blockchain: BlockchainSchema.optional().openapi({ description: 'The chain of walletAddress; default the service default blockchain.' }),
    fees: z.object({ onRamp: FeeRuleSchema, offRamp: FeeRuleSchema }).strict(),
  })
  .openapi('CreatePartnerFee');

export const PartnerFeeSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    walletAddress: z.string(),
    blockchain: BlockchainSchema,
    fees: z.object({ onRamp: z.object({ rate: z.string(), flatAmount: z.string() }), offRamp: z.object({ rate: z.string(), flatAmount: z.string() }) }),
    createdAt: z.iso.datetime(),
  })
  .openapi('PartnerFee');
export type PartnerFee = z.infer<typeof PartnerFeeSchema>;
