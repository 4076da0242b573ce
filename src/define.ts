// Every <ramp-*> tag at once, for bundlers (`ramp/define`); the script tag loads src/loader.ts instead, which fetches each
// component when its tag appears. Skips tags already defined (a page may load the SDK twice).
import { RampOnboarding } from './components/onboarding/onboarding';
import { RampPixCheckout } from './components/pix-checkout/pix-checkout';
import { RampOfframp } from './components/offramp/offramp';
import { RampDocumentUploader } from './components/document-uploader/document-uploader';
import { RampVerification } from './components/verification/verification';
import { RampQuote } from './components/quote/quote';
import { RampWidget } from './components/widget/widget';

const elements: ReadonlyArray<readonly [string, CustomElementConstructor]> = [['ramp-onboarding', RampOnboarding], ['ramp-document-uploader', RampDocumentUploader], ['ramp-verification', RampVerification], ['ramp-quote', RampQuote], ['ramp-pix-checkout', RampPixCheckout], ['ramp-offramp', RampOfframp], ['ramp-widget', RampWidget]];

/** Idempotent: the first definition of a tag wins, later calls (or a second copy of the bundle) leave it alone. */
export function defineRampElements(registry: CustomElementRegistry = customElements): void {
  for (const [tag, constructor] of elements) {
    if (!registry.get(tag)) registry.define(tag, constructor);
  }
}

defineRampElements();

export * from './index';
