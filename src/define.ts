// The script-tag entry: registers every <ramp-*> tag, skipping tags already defined (a page may load the script twice).
import { RampOnboarding } from './components/onboarding/onboarding';

const elements: ReadonlyArray<readonly [string, CustomElementConstructor]> = [['ramp-onboarding', RampOnboarding]];

/** Idempotent: the first definition of a tag wins, later calls (or a second copy of the bundle) leave it alone. */
export function defineRampElements(registry: CustomElementRegistry = customElements): void {
  for (const [tag, constructor] of elements) {
    if (!registry.get(tag)) registry.define(tag, constructor);
  }
}

defineRampElements();

export * from './index';
