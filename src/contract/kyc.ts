// The KYC/KYB contract: additional information, documents, associated parties and verifications.
import { z } from '@hono/zod-openapi';
import { NoControlCharacters, PlainDate, Text, Uuid } from './common';
import { StatusReasonSchema, VerificationStatusSchema } from './customers';

const Decimal = z
  .string()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a decimal string such as "2500.00"')
  .openapi({ example: '2500.00' });
const Alpha3 = Text({ max: 100 }).toUpperCase().length(3, 'must be an ISO 3166-1 alpha-3 code such as BRA');
const Phone = Text({ min: 4, max: 32 }).openapi({ description: 'International format, E.164: +5511987654321', example: '+5511987654321' });
const Tags = (example: string[]) => z.array(Text({ min: 1, max: 60 })).min(1).max(30).openapi({ example });

export const AddressSchema = z
  .strictObject({
    country: Alpha3.openapi({ example: 'BRA' }),
    line1: Text({ min: 1, max: 200 }).openapi({ example: 'Av. Paulista, 1000' }),
    city: Text({ min: 1, max: 100 }).openapi({ example: 'São Paulo' }),
    state: Text({ min: 1, max: 100 }).openapi({ example: 'SP' }),
    postalCode: Text({ min: 1, max: 20 }).openapi({ example: '01310-100' }),
  })
  .openapi('Address');

const shared = {
  phone: Phone,
  address: AddressSchema,
  monthlyVolumeInUSD: Decimal,
  transactionVolumeInUSD: Decimal,
  jurisdictions: Tags(['BRA', 'USA']).openapi({ description: 'Country codes, `EU` or `OTHERS`.' }),
  involvedActivities: Tags(['NONE']).openapi({ description: 'e.g. `NONE`, `GAMBLING`.' }),
  transactionCounterparties: Tags(['SELF']).openapi({ description: 'e.g. `SELF`, `MERCHANTS_SUPPLIERS`.' }),
};

export const IndividualAdditionalInformationSchema = z
  .strictObject({
    type: z.literal('INDIVIDUAL'),
    ...shared,
    firstName: Text({ min: 1, max: 100 }),
    middleName: Text({ max: 100 }).openapi({ description: 'May be an empty string.' }),
    lastName: Text({ min: 1, max: 100 }),
    professionalSituation: z.enum(['EMPLOYEE', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'OTHER']),
    professionalOccupation: Text({ min: 1, max: 200 }),
    sourceOfFunds: Text({ min: 1, max: 60 }).openapi({ example: 'EMPLOYMENT' }),
  })
  .openapi('IndividualAdditionalInformation');

export const BusinessAdditionalInformationSchema = z
  .strictObject({
    type: z.literal('BUSINESS'),
    ...shared,
    companyType: Text({ min: 1, max: 60 }).openapi({ example: 'PAYMENT_GATEWAY' }),
    annualRevenue: Decimal,
    monthlyTransactionVolume: Decimal,
    complianceAndAML: Text({ min: 1, max: 5000, multiline: true }),
    isRegulatedActivity: z.boolean(),
    regulatedActivityDetails: Text({ max: 5000, multiline: true }).openapi({ description: 'Required (non-empty) when isRegulatedActivity is true.' }),
    website: z.url({ protocol: /^https?$/ }).max(500).refine(NoControlCharacters.test, NoControlCharacters.message),
    sourceOfFunds: Text({ min: 1, max: 60 }).openapi({ example: 'COMPANY' }),
    servicesProvided: Text({ min: 1, max: 5000, multiline: true }),
  })
  .openapi('BusinessAdditionalInformation');

export const AdditionalInformationSchema = z
  .discriminatedUnion('type', [IndividualAdditionalInformationSchema, BusinessAdditionalInformationSchema])
  .openapi('AdditionalInformation');
export type AdditionalInformation = z.infer<typeof AdditionalInformationSchema>;

import { DOCUMENT_CONTENT_TYPES, DOCUMENT_TYPES, UPLOAD_DOCUMENT_TYPES } from './documents';

export { DOCUMENT_CONTENT_TYPES, DOCUMENT_TYPES, type DocumentType, IDENTITY_TYPES, MAX_DOCUMENT_BYTES, UPLOAD_DOCUMENT_TYPES } from './documents';

export const DocumentSchema = z
  .object({
    id: Uuid,
    type: z.enum(DOCUMENT_TYPES).openapi({ description: '`SELFIE`: the liveness photo taken on the hosted verification page; it cannot be uploaded here.' }),
    side: z.enum(['FRONT_SIDE', 'BACK_SIDE']).nullable(),
    country: z.string().nullable(),
    associatedPartyId: Uuid.nullable(),
    status: z.enum(['SENT', 'APPROVED', 'REJECTED']),
    comment: z.string().nullable(),
    rejectLabels: z.array(z.string()),
    fileName: z.string(),
    contentType: z.enum(DOCUMENT_CONTENT_TYPES),
    size: z.number().int().openapi({ description: 'Bytes' }),
    sha256: z.string(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Document');
export type Document = z.infer<typeof DocumentSchema>;

export const UploadDocumentSchema = z
  .object({
    file: z.string().openapi({ type: 'string', format: 'binary', description: 'Required. JPG, PNG or PDF (recognised by its bytes), at most 50 MB' }),
    type: z.enum(UPLOAD_DOCUMENT_TYPES).openapi({ description: 'The selfie is not uploaded here: the hosted verification page (`verification.link`) takes it.' }),
    side: z.enum(['FRONT_SIDE', 'BACK_SIDE']).optional().openapi({ description: 'Required for ID_CARD and DRIVERS_LICENSE (each side is its own upload); ignored on other types' }),
    country: Text({ max: 100, trim: false }).optional().openapi({ description: 'alpha-3' }),
    associatedPartyId: Uuid.optional(),
  })
  .openapi('UploadDocument');

export const PartyRoleSchema = z.enum(['UBO', 'SHAREHOLDER', 'REPRESENTATIVE']).openapi('PartyRole');

export const CreateAssociatedPartySchema = z
  .strictObject({
    type: z.enum(['INDIVIDUAL', 'BUSINESS']),
    roles: z.array(PartyRoleSchema).min(1).max(3),
    ownershipPercentage: z
      .union([z.string().regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be a percentage such as "25" or "33.33"'), z.number()])
      .optional()
      .openapi({ description: 'Required for UBO and SHAREHOLDER, 25 to 100.', example: '40' }),
    parentId: Uuid.optional().openapi({ description: 'A business shareholder of the same customer; the nested party may only be a SHAREHOLDER.' }),
    name: Text({ min: 1, max: 200 }).optional(),
    legalName: Text({ min: 1, max: 200 }).optional(),
    taxId: Text({ min: 1, max: 40 }),
    birthDate: PlainDate.optional(),
    incorporationDate: PlainDate.optional(),
    email: z.email().max(254),
    address: AddressSchema,
  })
  .openapi('CreateAssociatedParty');
export type CreateAssociatedParty = z.infer<typeof CreateAssociatedPartySchema>;

/** A correction: any field of the party but its type and parent; the result is checked as a new party would be. */
export const UpdateAssociatedPartySchema = CreateAssociatedPartySchema.omit({ type: true, parentId: true })
  .partial()
  .strict()
  .openapi('UpdateAssociatedParty');
export type UpdateAssociatedParty = z.infer<typeof UpdateAssociatedPartySchema>;

export const RequirementListSchema = z.array(z.object({ name: z.string(), status: z.string(), acceptedTypes: z.array(z.string()).optional() }));

export const AssociatedPartySchema = z
  .object({
    id: Uuid,
    customerId: Uuid,
    parentId: Uuid.nullable(),
    type: z.enum(['INDIVIDUAL', 'BUSINESS']),
    roles: z.array(PartyRoleSchema),
    ownershipPercentage: z.string().nullable(),
    name: z.string().optional(),
    legalName: z.string().optional(),
    taxId: z.string(),
    birthDate: z.string().optional(),
    incorporationDate: z.string().optional(),
    email: z.string(),
    address: AddressSchema,
    verification: z.object({ status: VerificationStatusSchema, level: z.literal('STANDARD') }),
    requirements: RequirementListSchema,
    createdAt: z.iso.datetime(),
  })
  .openapi('AssociatedParty');
export type AssociatedParty = z.infer<typeof AssociatedPartySchema>;

export { StatusReasonSchema };

export const VerificationSchema = z
  .object({
    id: Uuid,
    customerId: Uuid,
    status: VerificationStatusSchema,
    level: z.literal('STANDARD'),
    statusReason: StatusReasonSchema.optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Verification');
export type Verification = z.infer<typeof VerificationSchema>;
