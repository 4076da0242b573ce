// Where a returning customer picks up: the first step not done, read from `requirements` and `verification.status` (never stored on the client).
import type { Customer } from '../../contract/customers';
import type { AssociatedParty } from '../../contract/kyc';
import { isDocumentRequirement } from '../document-uploader/requirements';
import type { OnboardingStep } from './steps';

type Requirement = Customer['requirements'][number];

const notSent = (requirements: readonly Requirement[], name: string) => requirements.some((r) => r.name === name && r.status === 'NOT_SENT');

/** Document requirements still to send (`NOT_SENT`) for the customer and, for a business, for each of its parties. */
export function missingDocuments(customer: Pick<Customer, 'requirements'>, parties: readonly AssociatedParty[] = []): { partyId?: string; name: string }[] {
  const own = customer.requirements.filter((r) => isDocumentRequirement(r.name) && r.status === 'NOT_SENT').map((r) => ({ name: r.name }));
  const theirs = parties.flatMap((p) => p.requirements.filter((r) => r.status === 'NOT_SENT').map((r) => ({ partyId: p.id, name: r.name })));
  return [...own, ...theirs];
}

export interface ResumeFacts {
  /** The business's parties (their own document requirements count too). */
  parties?: readonly AssociatedParty[];
  /** Whether a business already asked for verification (a sandbox review that never starts stays NOT_STARTED). */
  verificationRequested?: boolean;
}

/**
 * - Anything past NOT_STARTED (under review, approved, rejected) → the status view.
 * - NOT_STARTED: the first of additional information, parties (business), documents, then liveness (individual) or
 *   the start-verification step (business) that is not done; when all is done the review is pending → status.
 */
export function resumeStep(customer: Pick<Customer, 'type' | 'requirements' | 'verification'>, facts: ResumeFacts = {}): OnboardingStep {
  if (customer.verification.status !== 'NOT_STARTED') return 'status';
  const requirements = customer.requirements;
  if (notSent(requirements, 'ADDITIONAL_INFORMATION')) return 'info';
  if (customer.type === 'BUSINESS') {
    if (notSent(requirements, 'ASSOCIATED_PARTIES') || (facts.parties && facts.parties.length === 0)) return 'parties';
    if (missingDocuments(customer, facts.parties).length > 0) return 'documents';
    return facts.verificationRequested ? 'status' : 'submit';
  }
  if (missingDocuments(customer).length > 0) return 'documents';
  if (notSent(requirements, 'LIVENESS')) return 'liveness';
  return 'status';
}
