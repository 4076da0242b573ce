// The verification state machine of the spec, and what each customer type must send before review can start.
import { AppError } from './errors';
import { IDENTITY_DOCUMENT_TYPES, IDENTITY_REQUIREMENT } from './requirements';

export type VerificationStatus = 'NOT_STARTED' | 'UNDER_VERIFICATION' | 'APPROVED' | 'TEMPORARY_REJECTION' | 'FINAL_REJECTION';

const transitions: Record<VerificationStatus, VerificationStatus[]> = {
  NOT_STARTED: ['UNDER_VERIFICATION'],
  UNDER_VERIFICATION: ['APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'],
  TEMPORARY_REJECTION: ['UNDER_VERIFICATION'],
  APPROVED: [],
  FINAL_REJECTION: [],
};

/** A final decision: nothing about the customer changes any more, and the hosted page shows only this outcome. */
export function isDecided(status: VerificationStatus): boolean {
  return status === 'APPROVED' || status === 'FINAL_REJECTION';
}

export function canMove(from: VerificationStatus, to: VerificationStatus): boolean {
  return transitions[from].includes(to);
}

export function assertMove(from: VerificationStatus, to: VerificationStatus): void {
  if (!canMove(from, to)) throw new AppError('INVALID_STATE', `Verification cannot go from ${from} to ${to}.`);
}

/** FINAL_REJECTION is permanent: no document, information, verification or transaction is accepted after it. */
export function assertWritable(status: VerificationStatus): void {
  if (status === 'FINAL_REJECTION') {
    throw new AppError('INVALID_STATE', 'This customer was finally rejected; nothing more can be submitted for it.', { extra: { verificationStatus: status } });
  }
}

export function assertAdditionalInformationAllowed(status: VerificationStatus): void {
  assertWritable(status);
  if (status !== 'NOT_STARTED' && status !== 'TEMPORARY_REJECTION') {
    throw new AppError('INVALID_STATE', `Additional information can be sent while NOT_STARTED or TEMPORARY_REJECTION, not ${status}.`, {
      extra: { verificationStatus: status },
    });
  }
}

export interface KycState {
  hasAdditionalInformation: boolean;
  /** Types of the customer's own documents (not its parties'), excluding rejected ones; a two-sided type only with both sides in. */
  documentTypes: string[];
  livenessDone: boolean;
}

export interface PartyState {
  id: string;
  type: 'INDIVIDUAL' | 'BUSINESS';
  documentTypes: string[];
}

export function missingForIndividual(s: KycState, opts: { includeLiveness: boolean }): string[] {
  const missing: string[] = [];
  if (!s.hasAdditionalInformation) missing.push('ADDITIONAL_INFORMATION');
  if (!s.documentTypes.some((t) => (IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(t))) missing.push(IDENTITY_REQUIREMENT);
  if (!s.documentTypes.includes('BANK_STATEMENT')) missing.push('BANK_STATEMENT');
  if (opts.includeLiveness && !s.livenessDone) missing.push('LIVENESS');
  return missing;
}

export const BUSINESS_DOCUMENTS = ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY'] as const;
export const BUSINESS_PARTY_DOCUMENTS = ['INCORPORATION_ARTICLES', 'DIRECTORS_REGISTRY'] as const;

/** What a party must send: an identity document (individual) or its formation documents (business). */
export function missingForParty(p: PartyState): string[] {
  if (p.type === 'INDIVIDUAL') {
    return p.documentTypes.some((t) => (IDENTITY_DOCUMENT_TYPES as readonly string[]).includes(t)) ? [] : [IDENTITY_REQUIREMENT];
  }
  return BUSINESS_PARTY_DOCUMENTS.filter((t) => !p.documentTypes.includes(t));
}

export function missingForBusiness(s: KycState, parties: PartyState[]): string[] {
  const missing: string[] = [];
  if (!s.hasAdditionalInformation) missing.push('ADDITIONAL_INFORMATION');
  for (const t of BUSINESS_DOCUMENTS) if (!s.documentTypes.includes(t)) missing.push(t);
  if (parties.length === 0) missing.push('ASSOCIATED_PARTIES');
  for (const p of parties) for (const m of missingForParty(p)) missing.push(`associatedParties.${p.id}.${m}`);
  return missing;
}
