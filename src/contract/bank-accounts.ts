// The bank-account contract: payout destinations over PIX (BRL), SEPA (EUR) and SWIFT (USD), with a holder verified at level BASIC.
import { z } from '@hono/zod-openapi';
import { PlainDate, Text, Uuid } from './common';
import { VerificationStatusSchema } from './customers';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export const RELATIONSHIPS = ['SELF', 'FRIEND', 'RELATIVE', 'EMPLOYEE'] as const;

const HolderAddress = z
  .object({
    line1: Text({ min: 1, max: 200 }),
    city: Text({ min: 1, max: 100 }),
    state: Text({ min: 1, max: 100 }),
    postalCode: Text({ min: 1, max: 20 }),
    country: Text({ max: 100 }).toUpperCase().length(3, 'must be an ISO 3166-1 alpha-3 code such as BRA'),
  })
  .strict();

export const PixIdentifierSchema = z
  .strictObject({ keyType: z.enum(PIX_KEY_TYPES), keyValue: Text({ min: 1, max: 140 }) })
  .openapi('PixIdentifier', { description: 'CPF/CNPJ with check digits, EMAIL, PHONE as +55…, EVP a random key (UUID).' });
export const SepaIdentifierSchema = z
  .strictObject({ iban: Text({ min: 5, max: 42 }), bic: Text({ min: 8, max: 11 }).optional() })
  .openapi('SepaIdentifier', { description: 'IBAN checked by mod-97; BIC optional.' });
export const SwiftIdentifierSchema = z
  .strictObject({
    accountNumber: Text({ min: 4, max: 34 }),
    bic: Text({ min: 8, max: 11 }),
    bankName: Text({ min: 1, max: 140 }),
    bankCountry: Text({ max: 100 }).toUpperCase().length(3),
  })
  .openapi('SwiftIdentifier');

/** A bank account's identifier, as it is sent: the one of its rail (PIX key, SEPA IBAN, SWIFT account). */
export const BankAccountIdentifierSchema = z.union([PixIdentifierSchema, SepaIdentifierSchema, SwiftIdentifierSchema]);

const holderShape = {
    type: z.enum(['INDIVIDUAL', 'BUSINESS']),
    relationship: z.enum(RELATIONSHIPS),
    name: Text({ min: 1, max: 200 }).optional().openapi({ description: 'Individual holders' }),
    legalName: Text({ min: 1, max: 200 }).optional().openapi({ description: 'Business holders' }),
    taxId: Text({ min: 1, max: 40 }).openapi({
      description:
        "SELF: the customer's own taxId. A counterparty's is judged by `address.country`: a CPF (individual) or CNPJ (business) in Brazil, 4–32 letters and digits elsewhere.",
    }),
    birthDate: PlainDate.optional().openapi({ description: 'Individual holders; optional for counterparties' }),
    incorporationDate: PlainDate.optional().openapi({ description: 'Business holders; optional, not in the future' }),
    email: z.email().max(254).optional().openapi({ description: 'Business holders; optional' }),
    address: HolderAddress,
};

export const HolderSchema = z.object(holderShape).strict().openapi('BankAccountHolder');

export const CreateBankAccountSchema = z
  .strictObject({
    customerId: Uuid,
    name: Text({ min: 1, max: 100 }).openapi({ example: 'My Itaú account' }),
    type: z.literal('EXTERNAL'),
    rail: z.enum(['PIX', 'SEPA', 'SWIFT']),
    currency: z.enum(['BRL', 'EUR', 'USD']).openapi({ description: 'BRL for PIX, EUR for SEPA, USD for SWIFT' }),
    identifier: BankAccountIdentifierSchema,
    holder: HolderSchema,
  })
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
    // Documented as the union it is; typed as the stored record, which the server's presenters build it from.
    identifier: BankAccountIdentifierSchema as unknown as z.ZodType<Record<string, string>>,
    // A schema of its own, not an `allOf` of the closed request holder and `verification` (no object satisfies that).
    holder: z
      .object({ ...holderShape, verification: z.object({ status: VerificationStatusSchema, level: z.literal('BASIC') }) })
      .openapi('BankAccountHolderRecord'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('BankAccount');
export type BankAccount = z.infer<typeof BankAccountSchema>;
