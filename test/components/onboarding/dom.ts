// What the onboarding component tests do to the element: find in its shadow root, type, click, wait for a step.
import { waitUntil } from '@open-wc/testing';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';

export type Root = { shadowRoot: ShadowRoot | null };
export const q = <T extends Element = HTMLElement>(root: Root, selector: string): T | null => root.shadowRoot!.querySelector<T>(selector);
export const $ = <T extends Element = HTMLInputElement>(root: Root, selector: string): T => {
  const found = q<T>(root, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
export const text = (root: Root, selector: string) => q(root, selector)?.textContent?.replace(/\s+/g, ' ').trim();

/** Types into a control as `input` events would (fast path; the keyboard tests type for real). */
export async function fill(el: RampOnboarding, id: string, value: string): Promise<void> {
  const control = $<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(el, `#${id}`);
  control.value = value;
  control.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  await el.updateComplete;
}

export async function click(el: RampOnboarding, selector: string): Promise<void> {
  $<HTMLElement>(el, selector).click();
  await el.updateComplete;
}

/** The step is reached, and rendered: the later steps' code is a chunk of its own, which the first render of one awaits. */
export const atStep = async (el: RampOnboarding, step: string, timeout = 6000) => {
  await waitUntil(() => el.currentStep === step, `should reach the ${step} step (at ${el.currentStep})`, { timeout });
  await el.updateComplete;
};
