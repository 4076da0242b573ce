// Back to the step before, to read or correct what was saved there: offered until the review starts, never to the
// customer step (the customer exists by then).
import { html, nothing, type TemplateResult } from 'lit';
import type { StepContext } from './step-context';
import type { OnboardingStep } from './steps';

// The order of steps.ts, read backwards; kept here because this chunk must not import the first step's code.
const BEFORE: Record<'INDIVIDUAL' | 'BUSINESS', Partial<Record<OnboardingStep, OnboardingStep>>> = {
  INDIVIDUAL: { documents: 'info', liveness: 'documents' },
  BUSINESS: { parties: 'info', documents: 'parties', submit: 'documents' },
};

export function previousStep(ctx: StepContext, from: OnboardingStep): OnboardingStep | undefined {
  const customer = ctx.customer;
  if (!customer || customer.verification.status !== 'NOT_STARTED') return undefined;
  return BEFORE[customer.type][from];
}

export function backButton(ctx: StepContext, from: OnboardingStep): TemplateResult | typeof nothing {
  const to = previousStep(ctx, from);
  if (!to) return nothing;
  return html`<button part="back" type="button" data-testid="back" data-to=${to} @click=${() => void ctx.goTo(to)}>${ctx.t('kyc.back')}</button>`;
}
