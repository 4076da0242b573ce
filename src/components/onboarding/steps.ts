// The onboarding stepper's steps, in order, for each customer type (the type chosen on the first step decides the rest).
import { html, nothing, type TemplateResult } from 'lit';
import type { I18nController } from '../../i18n';
import type { PlainMessageKey } from '../kyc-labels';

export type OnboardingStep = 'customer' | 'info' | 'parties' | 'documents' | 'liveness' | 'submit' | 'status';
export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';

export interface StepInfo {
  id: OnboardingStep;
  label: PlainMessageKey;
}

const step = (id: OnboardingStep, label: PlainMessageKey): StepInfo => ({ id, label });

/** Individuals: details, additional information, documents, liveness (hosted page), then the review. */
const INDIVIDUAL: readonly StepInfo[] = [
  step('customer', 'onboarding.step.customer'),
  step('info', 'kyc.step.info'),
  step('documents', 'kyc.step.documents'),
  step('liveness', 'kyc.step.liveness'),
  step('status', 'kyc.step.status'),
];

/** Businesses: details, additional information, associated parties, documents, start the verification, then the review. */
const BUSINESS: readonly StepInfo[] = [
  step('customer', 'onboarding.step.customer'),
  step('info', 'kyc.step.info.BUSINESS'),
  step('parties', 'kyc.step.parties'),
  step('documents', 'kyc.step.documents'),
  step('submit', 'kyc.step.submit'),
  step('status', 'kyc.step.status'),
];

export function stepsFor(type: CustomerType): readonly StepInfo[] {
  return type === 'INDIVIDUAL' ? INDIVIDUAL : BUSINESS;
}

/** 1-based position, for "Step 2 of 5". */
export function stepNumber(type: CustomerType, id: OnboardingStep): number {
  return stepsFor(type).findIndex((s) => s.id === id) + 1;
}

/** The step after `id` for this type (the last step stays put). */
export function nextStep(type: CustomerType, id: OnboardingStep): OnboardingStep {
  const steps = stepsFor(type);
  const i = steps.findIndex((s) => s.id === id);
  return steps[Math.min(i + 1, steps.length - 1)]!.id;
}

/** The progress list: every step of the flow, the current one marked. */
export function renderProgress(i18n: I18nController, type: CustomerType, current: OnboardingStep): TemplateResult {
  const steps = stepsFor(type);
  return html`
    <ol part="steps" class="steps" aria-label=${i18n.t('onboarding.progress')}>
      ${steps.map(
        (step, i) => html`
          <li part="step" class="step" data-step=${step.id} aria-current=${step.id === current ? 'step' : nothing}>
            <span class="step-number" aria-hidden="true">${i + 1}</span>
            <span class="visually-hidden">${i18n.t('onboarding.stepOf', { current: i + 1, total: steps.length })}:</span>
            <span class="step-label">${i18n.t(step.label)}</span>
          </li>
        `,
      )}
    </ol>
  `;
}
