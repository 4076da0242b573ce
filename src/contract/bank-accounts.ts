// The bank-account contract: payout destinations over PIX (BRL), SEPA (EUR) and SWIFT (USD), with a holder verified at level BASIC.
import { z } from '@hono/zod-openapi';
import { PlainDate, Uuid } from './common';
import { VerificationStatusSchema } from './customers';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export const RELATIONSHIPS = ['SELF', 'FRIEND', 'RELATIVE', 'EMPLOYEE'] as const;

const HolderAddress = z
  .object({
    line1: z.string().trim().min(1).max(200),
    city: z.string().trim().min(1).max(100),
    state: z.string().trim().min(1).max(100),
    postalCode: z.string().trim().min(1).max(20),
    country: z.string().trim().toUpperCase().length(3, 'must be an ISO 3166-1 alpha-3 code such as BRA'),
  })
  .strict();

export const PixIdentifierSchema = z
  .object({ keyType: z.enum(PIX_KEY_TYPES), keyValue: z.string().trim().min(1).max(140) })
  .strict()
  .openapi('PixIdentifier', { description: 'CPF/CNPJ with check digits, EMAIL, PHONE as +55…, EVP a random key (UUID).' });
export const SepaIdentifierSchema = z
  .object({ iban: z.string().trim().min(5).max(42), bic: z.string().trim().min(8).max(11).optional() })
  .strict()
  .openapi('SepaIdentifier', { description: 'IBAN checked by mod-97; BIC optional.' });
export const SwiftIdentifierSchema = z
  .object({
    accountNumber: z.string().trim().min(4).max(34),
    bic: z.string().trim().min(8).max(11),
    bankName: z.string().trim().min(1).max(140),
    bankCountry: z.string().trim().toUpperCase().length(3),
  })
  .strict()
  .openapi('SwiftIdentifier');

export const HolderSchema = z
  .object({
    type: z.enum(['INDIVIDUAL', 'BUSINESS']),
    relationship: z.enum(RELATIONSHIPS),
    name: z.string().trim().min(1).max(200).optional().openapi({ description: 'Individual holders' }),
    legalName: z.string().trim().min(1).max(200).optional().openapi({ description: 'Business holders' }),
    taxId: z.string().trim().min(1).max(40),
    birthDate: PlainDate.optional().openapi({ description: 'Individual holders; optional for counterparties' }),
    incorporationDate: PlainDate.optional(),
    email: z.email().max(254).optional(),
    address: HolderAddress,
  })
  .strict()
  .openapi('BankAccountHolder');

export const CreateBankAccountSchema = z
  .object({
    customerId: Uuid,
    name: z.string().trim().min(1).max(100).openapi({ example: 'My Itaú account' }),
    type: z.literal('EXTERNAL'),
    rail: z.enum(['PIX', 'SEPA', 'SWIFT']),
    currency: z.enum(['BRL', 'EUR', 'USD']).openapi({ description: 'BRL for PIX, EUR for SEPA, USD for SWIFT' }),
    identifier: z.union([PixIdentifierSchema, SepaIdentifierSchema, SwiftIdentifierSchema]),
    holder: HolderSchema,
  })
  .strict()
  .openapi('CreateBankAccount');
export type CreateBankAccount = z.infer<typeof CreateBankAccountSchema>;

export const BankAccountSchema = z
  .object({
    id: Uuid,
    customerId: Uuid,
    name: z.string(),
    type: z.literal('EXTERNAL'),
    rail: z.enum(['PIX', 'SEPA', 'SWIFT']),
    currency: z.enum(['BRL', 'EUR', 'USD']),
    identifier: z.record(z.string(), z.string()),
    holder: HolderSchema.extend({ verification: z.object({ status: VerificationStatusSchema, level: z.literal('BASIC') }) }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('BankAccount');
export type BankAccount = z.infer<typeof BankAccountSchema>;
