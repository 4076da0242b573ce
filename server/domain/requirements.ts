// Verification requirements, derived from a customer's state (never stored): what is still to send, what is in review.
import type { VerificationStatus } from './verification';

export type RequirementStatus = 'NOT_SENT' | 'SENT' | 'APPROVED' | 'REJECTED';
export interface Requirement {
  name: string;
  status: RequirementStatus;
  acceptedTypes?: string[];
}

export const IDENTITY_DOCUMENT_TYPES = ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE'] as const;
/**
 * The identity requirement is named by a real document type (the spec: a requirement's `name` is a document type, so a
 * partner can upload `type=<name>`), and `acceptedTypes` lists every type that satisfies it.
 */
export const IDENTITY_REQUIREMENT = 'ID_CARD';
/** Documents with two sides: each needs a FRONT_SIDE and a BACK_SIDE upload before it counts as sent. */
export const TWO_SIDED_TYPES: readonly string[] = ['ID_CARD', 'DRIVERS_LICENSE'];

export interface RequirementInputs {
  type: 'INDIVIDUAL' | 'BUSINESS';
  verificationStatus: VerificationStatus;
  hasAdditionalInformation: boolean;
  /** Document types sent so far (with their review status, once reviewed); a two-sided type only once both sides are in. */
  documents: { type: string; status: RequirementStatus }[];
  associatedParties: number;
  livenessDone: boolean;
}

export function deriveRequirements(c: RequirementInputs): Requirement[] {
  const approved = c.verificationStatus === 'APPROVED';
  const sent = (ok: boolean): RequirementStatus => (approved ? 'APPROVED' : ok ? 'SENT' : 'NOT_SENT');
  const docStatus = (types: readonly string[]): RequirementStatus => {
    const docs = c.documents.filter((d) => types.includes(d.type));
    if (docs.length === 0) return approved ? 'APPROVED' : 'NOT_SENT';
    if (docs.some((d) => d.status === 'REJECTED')) return 'REJECTED';
    return docs.every((d) => d.status === 'APPROVED') || approved ? 'APPROVED' : 'SENT';
  };
  const info: Requirement = { name: 'ADDITIONAL_INFORMATION', status: sent(c.hasAdditionalInformation) };
  if (c.type === 'INDIVIDUAL') {
    return [
      info,
      { name: IDENTITY_REQUIREMENT, status: docStatus(IDENTITY_DOCUMENT_TYPES), acceptedTypes: [...IDENTITY_DOCUMENT_TYPES] },
      { name: 'BANK_STATEMENT', status: docStatus(['BANK_STATEMENT']) },
      { name: 'LIVENESS', status: sent(c.livenessDone) },
    ];
  }
  return [
    info,
    { name: 'INCORPORATION_ARTICLES', status: docStatus(['INCORPORATION_ARTICLES']) },
    { name: 'SHAREHOLDER_REGISTRY', status: docStatus(['SHAREHOLDER_REGISTRY']) },
    { name: 'DIRECTORS_REGISTRY', status: docStatus(['DIRECTORS_REGISTRY']) },
    { name: 'ASSOCIATED_PARTIES', status: sent(c.associatedParties > 0) },
  ];
}
