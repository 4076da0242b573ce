// Which documents a requirement asks for, and which sides: the uploader's slots, derived from `requirements[]` (customer or party).
import { IDENTITY_TYPES, type DocumentType } from '../../contract/documents';

export type Side = 'FRONT_SIDE' | 'BACK_SIDE';
export type RequirementStatus = 'NOT_SENT' | 'SENT' | 'APPROVED' | 'REJECTED';

export interface RequirementLike {
  name: string;
  status: string;
  acceptedTypes?: string[] | undefined;
}

/** Requirements that are not documents: sent through other steps (form, parties editor, hosted liveness). */
const NOT_DOCUMENTS = new Set(['ADDITIONAL_INFORMATION', 'LIVENESS', 'ASSOCIATED_PARTIES']);

export function isDocumentRequirement(name: string): boolean {
  return !NOT_DOCUMENTS.has(name);
}

/** ID cards, passports and driver's licences carry the country that issued them (the upload's `country` field). */
export function isIdentityType(type: string): boolean {
  return (IDENTITY_TYPES as readonly string[]).includes(type);
}

/**
 * The documents the spec lists as optional for a customer, which can speed up a review: a person's income tax return
 * and proof of address (both of the last calendar year), a company's power of attorney and signed statements; a
 * regulated-activity licence only for a company that said its activity is regulated. Associated parties have none.
 */
export function optionalTypesFor(customer: { type: string; additionalInformation?: Record<string, unknown> | undefined }): DocumentType[] {
  if (customer.type === 'INDIVIDUAL') return ['INCOME_TAX_RETURN', 'DELIVERY_RECEIPT', 'OTHER'];
  return [
    'POWER_OF_ATTORNEY',
    ...(customer.additionalInformation?.isRegulatedActivity === true ? (['REGULATED_ACTIVITY_DOCUMENT'] as const) : []),
    'SIGNED_BALANCE_SHEET',
    'SIGNED_CORPORATE_STRUCTURE_CHART',
    'SIGNED_INCOME_STATEMENT',
    'OTHER',
  ];
}

/** The document types that satisfy a requirement: its `acceptedTypes` (the identity requirement, named ID_CARD), else the type of the same name. */
export function typesFor(requirement: RequirementLike): DocumentType[] {
  if (requirement.acceptedTypes?.length) return requirement.acceptedTypes as DocumentType[];
  return [requirement.name as DocumentType];
}

/** ID cards and driver's licences are sent as two uploads, front and back; everything else is one file. */
export function sidesFor(type: string): readonly Side[] {
  return type === 'ID_CARD' || type === 'DRIVERS_LICENSE' ? ['FRONT_SIDE', 'BACK_SIDE'] : [];
}

/** A document type → the requirement it belongs to (`PASSPORT` → `ID_CARD`, the identity requirement), e.g. to focus the uploader on rejected ones. */
export function requirementOf(type: string): string {
  return (IDENTITY_TYPES as readonly string[]).includes(type) ? 'ID_CARD' : type;
}

/** `"ID_CARD, BANK_STATEMENT"` or space-separated → names; empty → undefined (show all). */
export function parseTypes(attribute: string | undefined | null): string[] | undefined {
  const names = (attribute ?? '').split(/[\s,]+/).map((s) => s.trim().toUpperCase()).filter(Boolean);
  return names.length ? [...new Set(names)] : undefined;
}
