// What a host sets on each tag, for the React and Vue typings (react.ts, vue.ts): the element's class, the public
// properties a host may set (each is also an attribute, except `quote` and `clock`), and the events it fires, typed by
// name in HTMLElementEventMap. test/e2e/packed-hosts.test.ts checks it against custom-elements.json.
import type { RampDocumentUploader } from '../components/document-uploader/document-uploader';
import type { RampOfframp } from '../components/offramp/offramp';
import type { RampOnboarding } from '../components/onboarding/onboarding';
import type { RampPixCheckout } from '../components/pix-checkout/pix-checkout';
import type { RampQuote } from '../components/quote/quote';
import type { RampVerification } from '../components/verification/verification';
import type { RampWidget } from '../components/widget/widget';
// The events' names and types (HTMLElementEventMap), which the typings look up.
import '../events';

interface Tag<E extends HTMLElement, P extends keyof E, V extends keyof HTMLElementEventMap> {
  element: E;
  props: P;
  /** What a host may set: each of `props` optional, typed as the element types it. */
  properties: Partial<Pick<E, P>>;
  events: V;
}

type Common = 'apiBase' | 'session' | 'sessionUrl' | 'lang' | 'theme';
type SessionEvents = 'ramp-error' | 'ramp-session-expiring' | 'ramp-session-expired';
type Money = 'exchangeRateId' | 'amount' | 'stablecoin' | 'blockchain' | 'pollInterval' | 'quote';
type MoneyEvents = 'ramp-transaction-created' | 'ramp-transaction-updated' | 'ramp-requote-requested';

export interface RampTags {
  'ramp-document-uploader': Tag<RampDocumentUploader, Common | 'types' | 'associatedPartyId' | 'headingLevel', SessionEvents | 'ramp-document-uploaded'>;
  'ramp-offramp': Tag<RampOfframp, Common | Money | 'pageSize', SessionEvents | MoneyEvents | 'ramp-bank-account-created'>;
  'ramp-onboarding': Tag<RampOnboarding, Common | 'keepDraft' | 'supportContact', SessionEvents | 'ramp-customer-created' | 'ramp-verification-changed' | 'ramp-document-uploaded'>;
  'ramp-pix-checkout': Tag<RampPixCheckout, Common | Money | 'purpose' | 'sandbox', SessionEvents | MoneyEvents>;
  'ramp-quote': Tag<RampQuote, Common | 'direction' | 'hideDirection' | 'fiat' | 'stablecoin' | 'blockchain' | 'amount' | 'refreshInterval' | 'clock', SessionEvents | 'ramp-quote-locked' | 'ramp-quote-expired'>;
  'ramp-verification': Tag<RampVerification, Common | 'sandbox' | 'headingLevel', SessionEvents | 'ramp-verification-changed' | 'ramp-document-uploaded'>;
  'ramp-widget': Tag<RampWidget, Common | 'sandbox' | 'amount' | 'supportContact', SessionEvents | 'ramp-customer-created' | 'ramp-quote-locked' | 'ramp-transaction-created' | 'ramp-transaction-updated'>;
}

export type RampTagName = keyof RampTags;

export type RampTagProperties<T extends RampTagName> = RampTags[T]['properties'];
