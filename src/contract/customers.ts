// The customer contract: request and response schemas of /v2/customers, and the types the BFF client and components import.
import { z } from '@hono/zod-openapi';
import { BLOCKCHAINS } from './blockchains';
import { MetadataSchema, PageQuery, page, Text, Uuid } from './common';
import { IDENTITY_TYPES } from './documents';
import { normalizeTaxId } from './tax-id';

export const CustomerTypeSchema = z.enum(['INDIVIDUAL', 'BUSINESS']).openapi('CustomerType');
export const VerificationStatusSchema = z
  .enum(['NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'])
  .openapi('VerificationStatus');
export const RequirementStatusSchema = z.enum(['NOT_SENT', 'SENT', 'APPROVED', 'REJECTED']).openapi('RequirementStatus');
export const BlockchainSchema = z.enum(BLOCKCHAINS).openapi('Blockchain');

const Email = z.email().max(254).openapi({ example: 'ana@example.com' });
const Alpha3 = Text({ max: 100, trim: false }).openapi({ description: 'ISO 3166-1 alpha-3', example: 'BRA' });
const TaxId = Text({ min: 1, max: 40, trim: false }).openapi({
  description:
    'The tax id issued by `country`. Brazil (also an individual without `country`): a CPF (individual) or CNPJ (business) with valid check digits. Any other country: that country\'s own tax id, 4 to 32 letters and digits. Punctuation and spaces are accepted and stripped.',
});
const Date_ = Text({ max: 40, trim: false }).openapi({ format: 'date' });
/** The partner's own id for its user, matched exactly (no trimming). */
export const ExternalUserId = Text({ min: 1, max: 128, trim: false }).openapi({
  description:
    "Your own id for the user (1–128 characters, no control characters), matched exactly. At most one customer per externalUserId: widget sessions minted with it are bound to that customer once it exists.",
  example: 'user-8412',
});

export const CreateIndividualSchema = z
  .strictObject({
    type: z.literal('INDIVIDUAL'),
    name: Text({ min: 1, max: 200 }).openapi({ example: 'Ana Souza' }),
    taxId: TaxId.openapi({ example: '529.982.247-25' }),
    birthDate: Date_.openapi({ example: '1990-05-17' }),
    email: Email.optional(),
    // The spec gives every customer a `country`; for a person it is the country that issued the tax id (tax residence),
    // which is not always the nationality: a foreigner living in Brazil has a CPF and says BRA.
    country: Alpha3.optional().openapi({
      description:
        'ISO 3166-1 alpha-3 code of the country that issued `taxId` (the tax residence). Decides the taxId rule: BRA needs a CPF; other countries a 4–32 character tax id of their own. Absent: BRA, and the customer is recorded with BRA.',
      example: 'BRA',
    }),
    externalUserId: ExternalUserId.optional(),
    metadata: MetadataSchema.optional(),
  })
  .openapi('CreateIndividualCustomer');

export const CreateBusinessSchema = z
  .strictObject({
    type: z.literal('BUSINESS'),
    legalName: Text({ min: 1, max: 200 }).openapi({ example: 'Acme Pagamentos Ltda' }),
    taxId: TaxId.openapi({ example: '11.222.333/0005-05', description: 'Sandbox: the last digit picks the review outcome (0 or 4–9 approve; see docs/api.md).' }),
    incorporationDate: Date_.openapi({ example: '2015-03-02' }),
    country: Alpha3,
    email: Email,
    externalUserId: ExternalUserId.optional(),
    metadata: MetadataSchema.optional(),
  })
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
      // Typed string[] for the server's requirement rules; documented with the types the identity requirement lists.
      .array(z.string().openapi({ enum: [...IDENTITY_TYPES] }))
      .optional()
      .openapi({ description: 'Only on the identity requirement, named ID_CARD: the document types that satisfy it (any one of them; ID_CARD and DRIVERS_LICENSE with both sides).' }),
  })
  .openapi('Requirement');

export const StatusReasonSchema = z
  .object({
    rejectLabels: z.array(z.string()),
    documents: z.array(z.object({ type: z.string(), status: z.string(), comment: z.string(), rejectLabels: z.array(z.string()) })),
  })
  .openapi('StatusReason');

export const CustomerVerificationSchema = z
  .object({
    status: VerificationStatusSchema,
    level: z.literal('STANDARD'),
    link: z.url().openapi({
      description:
        'Hosted verification page (liveness) for this customer only. Minted afresh on every read and valid for 24 hours by default (`RAMP_VERIFICATION_LINK_TTL_HOURS`): read the customer again for a new one. Events and webhooks never carry it. Once the verification is APPROVED or FINAL_REJECTION the page shows the outcome alone.',
    }),
    statusReason: StatusReasonSchema.optional().openapi({ description: 'Present on TEMPORARY_REJECTION: the labels and documents to correct (as on the verification).' }),
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
    country: z.string().optional().openapi({ description: 'ISO 3166-1 alpha-3: a business\'s country of incorporation, an individual\'s country of tax residence (the issuer of `taxId`).' }),
    email: z.string().optional(),
    externalUserId: z.string().optional().openapi({ description: 'Your own id for the user, when you gave one (at creation, or through a widget session minted with it).' }),
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

/**
 * A customer as an event carries it (customer.* webhooks, GET /v2/events): the read without its credential and its
 * per-read extras. `verification.link` is a bearer link to the customer's verification page: sent to a webhook
 * endpoint it would be a secret in a partner's logs, so it is minted only on a read.
 */
export const CustomerEventSchema = CustomerSchema.omit({ transactionLimits: true })
  .extend({
    wallets: z.array(WalletSchema.omit({ balances: true })),
    verification: CustomerVerificationSchema.omit({ link: true }).openapi('CustomerEventVerification'),
  })
  .openapi('CustomerEvent', {
    description: 'The customer as GET /v2/customers/{id} shows it right after the change, without `verification.link` (read the customer for one), wallet `balances` or `transactionLimits`.',
  });
export type CustomerEvent = z.infer<typeof CustomerEventSchema>;

export const CustomerListQuery = PageQuery.extend({
  type: CustomerTypeSchema.optional(),
  status: VerificationStatusSchema.optional(),
  taxId: Text({ min: 1, max: 40 })
    .regex(/^[0-9A-Za-z./ -]+$/, 'must be the letters and digits of a tax id (punctuation . - / allowed); wildcards are not supported')
    .refine((v) => normalizeTaxId(v).length > 0, 'must contain the letters and digits of a tax id')
    .optional()
    .openapi({ description: 'Exact tax id, punctuation accepted.', pattern: '^[0-9A-Za-z./ -]+$' }),
  email: z.email('must be a whole email address; wildcards are not supported').max(254).optional().openapi({ description: 'Exact email, any case.' }),
  externalUserId: ExternalUserId.optional().openapi({ description: 'Exact externalUserId: your own id for the user.' }),
});

export const CustomerPageSchema = page(CustomerSchema).openapi('CustomerPage');
export type CustomerPage = z.infer<typeof CustomerPageSchema>;

export const CustomerReadQuery = z.object({
  includeBalances: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
  // Absent stays absent: a pinned older version has its own default.
  includeTransactionLimits: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
});
