// The onboarding stepper's steps, in order; later issues add additional information, documents and liveness between them.
import type { MessageKey } from '../../i18n';

export const onboardingSteps = [
  { id: 'customer', label: 'onboarding.step.customer' },
  { id: 'done', label: 'onboarding.step.done' },
] as const satisfies readonly { id: string; label: MessageKey }[];

export type OnboardingStep = (typeof onboardingSteps)[number]['id'];

/** 1-based position, for "Step 1 of 2". */
export function stepNumber(step: OnboardingStep): number {
  return onboardingSteps.findIndex((s) => s.id === step) + 1;
}
