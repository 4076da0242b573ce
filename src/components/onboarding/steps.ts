// The onboarding stepper's steps, in order, for each customer type (the type chosen on the first step decides the rest).
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
  step('info', 'kyc.step.info'),
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
