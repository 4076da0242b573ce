// The customer a session is bound to, if any, with its parties and the step its onboarding resumes at.
import type { BffClient } from '../../client/bff-client';
import type { Customer } from '../../contract/customers';
import type { AssociatedParty } from '../../contract/kyc';
import type { OnboardingStep } from './steps';

export interface BoundCustomer {
  customer: Customer;
  parties: readonly AssociatedParty[];
  step: OnboardingStep;
}

/**
 * Undefined for an onboarding session (no customer yet), one that cannot be read now, or once `signal` aborted.
 * Asking the session first spares every new user's console a 404 from `GET customer`.
 */
export async function boundCustomer(client: BffClient, signal: AbortSignal): Promise<BoundCustomer | undefined> {
  try {
    const { customerId } = await client.getSession({ signal });
    if (!customerId || signal.aborted) return undefined;
    const customer = await client.getCustomer({ signal });
    if (signal.aborted) return undefined;
    const business = customer.type === 'BUSINESS';
    // Only a returning customer needs the resume rules: a chunk of their own, off the first step's budget.
    const resume = import('./resume');
    const [parties, verifications] = business
      ? await Promise.all([client.listAssociatedParties({ signal }).then((p) => p.data), client.listVerifications({ signal }).then((v) => v.data)])
      : [[], []];
    const { resumeStep } = await resume;
    if (signal.aborted) return undefined;
    return { customer, parties, step: resumeStep(customer, { parties, verificationRequested: verifications.length > 0 }) };
  } catch {
    return undefined;
  }
}
