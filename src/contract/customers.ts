// The customer contract: request and response schemas of /v2/customers, and the types the BFF client and components import.
import { z } from '@hono/zod-openapi';
import { PageQuery, page, Uuid } from './common';

export const CustomerTypeSchema = z.enum(['INDIVIDUAL', 'BUSINESS']).openapi('CustomerType');
export const VerificationStatusSchema = z
  .enum(['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'])
  .openapi('VerificationStatus');
export const RequirementStatusSchema = z.enum(['NOT_SENT', 'SENT', 'APPROVED', 'REJECTED']).openapi('RequirementStatus');
export const BlockchainSchema = z.enum(['ETHEREUM', 'BASE', 'TRON', 'POLYGON']).openapi('Blockchain');

const Metadata = z
  .record(z.string().min(1).max(40), z.unknown())
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys')
  .refine((m) => JSON.stringify(m).length <= 8192, 'at most 8 KB as JSON')
  .openapi({ description: 'Free-form, up to 50 keys and 8 KB.', example: { partnerUserId: 'u_123' } });

const Email = z.email().max(254).openapi({ example: 'ana@example.com' });
const Alpha3 = z.string().openapi({ description: 'ISO 3166-1 alpha-3', example: 'BRA' });
const TaxId = z.string().min(1).max(40).openapi({ description: 'CPF (individual) or CNPJ (business) for Brazil; punctuation accepted.' });
const Date_ = z.string().openapi({ format: 'date' });

export const CreateIndividualSchema = z
  .object({
    type: z.literal('INDIVIDUAL'),
    name: z.string().trim().min(1).max(200).openapi({ example: 'Ana Souza' }),
    taxId: TaxId.openapi({ example: '529.982.247-25' }),
    birthDate: Date_.openapi({ example: '1990-05-17' }),
    email: Email.optional(),
    country: Alpha3.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .openapi('CreateIndividualCustomer');

export const CreateBusinessSchema = z
  .object({
    type: z.literal('BUSINESS'),
    legalName: z.string().trim().min(1).max(200).openapi({ example: 'Acme Pagamentos Ltda' }),
    taxId: TaxId.openapi({ example: '11.222.333/0001-81' }),
    incorporationDate: Date_.openapi({ example: '2015-03-02' }),
    country: Alpha3,
    email: Email,
    metadata: Metadata.optional(),
  })
  .strict()
  .openapi('CreateBusinessCustomer');

export const CreateCustomerSchema = z
  .discriminatedUnion('type', [CreateIndividualSchema, CreateBusinessSchema])
  .openapi('CreateCustomer');

export type CreateCustomerRequest = z.infer<typeof CreateCustomerSchema>;

export const WalletSchema = z
  .object({
    blockchain: BlockchainSchema,
    address: z.string(),
    blockExplorerUrl: z.url(),
    isDefault: z.boolean(),
    balances: z.array(z.object({ stablecoin: z.string(), balance: z.string() })).optional(),
  })
  .openapi('Wallet');

export const RequirementSchema = z
  .object({
    name: z.string().openapi({ example: 'ADDITIONAL_INFORMATION' }),
    status: RequirementStatusSchema,
    acceptedTypes: z
      .array(z.string())
      .optional()
      .openapi({ description: 'For IDENTITY_DOCUMENT: the document types that satisfy it.' }),
  })
  .openapi('Requirement');

export const CustomerVerificationSchema = z
  .object({
    status: VerificationStatusSchema,
    level: z.literal('STANDARD'),
    link: z.url().openapi({ description: 'Hosted verification page (liveness); valid at any time, for this customer only.' }),
  })
  .openapi('CustomerVerification');

const LimitWindow = z.object({ max: z.string(), used: z.string(), remaining: z.string() });
export const TransactionLimitsSchema = z
  .object({ single: z.object({ max: z.string() }), daily: LimitWindow, monthly: LimitWindow })
  .openapi('TransactionLimits', { description: 'USD-equivalent decimal strings; days and months are UTC.' });

export const CustomerSchema = z
  .object({
    id: Uuid,
    type: CustomerTypeSchema,
    name: z.string().optional(),
    legalName: z.string().optional(),
    taxId: z.string().openapi({ example: '52998224725' }),
    birthDate: z.string().optional(),
    incorporationDate: z.string().optional(),
    country: z.string().optional(),
    email: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()),
    wallets: z.array(WalletSchema),
    verification: CustomerVerificationSchema,
    requirements: z.array(RequirementSchema),
    additionalInformation: z.record(z.string(), z.unknown()).optional(),
    transactionLimits: TransactionLimitsSchema.optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Customer');

export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerListQuery = PageQuery.extend({
  type: CustomerTypeSchema.optional(),
  status: VerificationStatusSchema.optional(),
  taxId: z.string().max(40).optional(),
  email: z.string().max(254).optional(),
});

export const CustomerPageSchema = page(CustomerSchema).openapi('CustomerPage');
export type CustomerPage = z.infer<typeof CustomerPageSchema>;

export const CustomerReadQuery = z.object({
  includeBalances: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
  includeTransactionLimits: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});
