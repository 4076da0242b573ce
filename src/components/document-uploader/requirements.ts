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

/** The document types that satisfy a requirement: its `acceptedTypes` (IDENTITY_DOCUMENT), else the type of the same name. */
export function typesFor(requirement: RequirementLike): DocumentType[] {
  if (requirement.acceptedTypes?.length) return requirement.acceptedTypes as DocumentType[];
  if (requirement.name === 'IDENTITY_DOCUMENT') return [...IDENTITY_TYPES];
  return [requirement.name as DocumentType];
}

/** ID cards and driver's licences are sent as two uploads, front and back; everything else is one file. */
export function sidesFor(type: string): readonly Side[] {
  return type === 'ID_CARD' || type === 'DRIVERS_LICENSE' ? ['FRONT_SIDE', 'BACK_SIDE'] : [];
}

/** A document type → the requirement it belongs to (`PASSPORT` → `IDENTITY_DOCUMENT`), e.g. to focus the uploader on rejected ones. */
export function requirementOf(type: string): string {
  return (IDENTITY_TYPES as readonly string[]).includes(type) ? 'IDENTITY_DOCUMENT' : type;
}

/** `"IDENTITY_DOCUMENT, BANK_STATEMENT"` or space-separated → names; empty → undefined (show all). */
export function parseTypes(attribute: string | undefined | null): string[] | undefined {
  const names = (attribute ?? '').split(/[\s,]+/).map((s) => s.trim().toUpperCase()).filter(Boolean);
  return names.length ? [...new Set(names)] : undefined;
}
