// Review providers decide verifications: the sandbox one by the taxId's last digit; production waits for a real reviewer.
import type { StatusReason } from '../store/schema/verifications';

export type ReviewDecision =
  | { outcome: 'APPROVED' }
  | { outcome: 'TEMPORARY_REJECTION'; statusReason: StatusReason }
  | { outcome: 'FINAL_REJECTION'; statusReason?: StatusReason }
  | { outcome: 'PENDING' };

export interface ReviewSubject {
  type: 'INDIVIDUAL' | 'BUSINESS';
  taxId: string;
  /** True when this review resumes after corrected documents were uploaded. */
  resumed: boolean;
}

export interface ReviewProvider {
  /** Whether a verification that is asked to start actually starts (sandbox: taxId ending in 1 never does). */
  starts(subject: Omit<ReviewSubject, 'resumed'>): boolean;
  decide(subject: ReviewSubject): ReviewDecision;
}

/** The document the sandbox asks to correct on a TEMPORARY_REJECTION. */
export const sandboxRejectedDocument = (type: 'INDIVIDUAL' | 'BUSINESS') => (type === 'INDIVIDUAL' ? 'BANK_STATEMENT' : 'DIRECTORS_REGISTRY');

export const sandboxReviewProvider: ReviewProvider = {
  starts: (s) => !s.taxId.endsWith('1'),
  decide(s) {
    if (s.resumed) return { outcome: 'APPROVED' };
    const last = s.taxId.at(-1);
    if (last === '2') {
      const type = sandboxRejectedDocument(s.type);
      return {
        outcome: 'TEMPORARY_REJECTION',
        statusReason: {
          rejectLabels: ['DOCUMENT_OUTDATED'],
          documents: [
            {
              type,
              status: 'REJECTED',
              comment: type === 'BANK_STATEMENT' ? 'The bank statement must be from the last 6 months.' : 'The directors registry must list the current directors and be signed.',
              rejectLabels: ['DOCUMENT_OUTDATED'],
            },
          ],
        },
      };
    }
    if (last === '3') return { outcome: 'FINAL_REJECTION', statusReason: { rejectLabels: ['SANCTIONS_LIST_MATCH'], documents: [] } };
    return { outcome: 'APPROVED' };
  },
};

/** Production: a human (or a real KYC vendor, later) decides; the worker leaves the verification under review. */
export const manualReviewProvider: ReviewProvider = {
  starts: () => true,
  decide: () => ({ outcome: 'PENDING' }),
};
