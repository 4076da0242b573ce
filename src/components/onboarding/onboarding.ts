// <ramp-onboarding>: the KYC/KYB stepper: creates the customer, then additional information, parties, documents, liveness or start, and the review.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import type { Customer } from '../../contract/customers';
import type { AssociatedParty } from '../../contract/kyc';
import type { BffCustomerCreated } from '../../contract/widget-sessions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient } from '../../client/bff-client';
import { errorDetailFor } from '../../client/problem';
import { pollingFeed } from '../../client/feed';
import { RampCustomerCreatedEvent } from '../../events/customer-created';
import { RampErrorEvent } from '../../events/error';
import { RampVerificationChangedEvent } from '../../events/verification-changed';
import { CustomerWatch } from '../customer-watch';
import { I18nController, type MessageKey, type PluralKey, type TranslateArgs } from '../../i18n';
import type { KycSteps } from './kyc-steps';
import type { StepContext } from './step-context';
import { renderCreated, renderCustomerForm } from './customer-form';
import { CustomerStep } from './customer-step';
import { boundCustomer } from './bound-customer';
import type { CustomerType } from './model';
import { onboardingStyles } from './onboarding.styles';
import { renderProgress, stepsFor, type OnboardingStep } from './steps';

/** An empty string removes the attribute instead of leaving `session=""` or `lang=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

/**
 * Onboards a customer for a partner, end to end. The user chooses individual or business and fills in who they are;
 * the component creates the customer through the BFF with the widget session and switches to the session bound to
 * it. Then: additional information; for a business its associated parties (UBOs, shareholders, nested shareholders of
 * business shareholders, representatives); the documents (`<ramp-document-uploader>`); for an individual the liveness
 * check on the hosted verification page (opened top-level in a popup, never in an iframe), for a business the start of
 * the verification; and a status view that follows the review live and explains a rejection.
 *
 * Given a session bound to an existing customer, it resumes at the first step not done (read from the customer's
 * `requirements` and `verification.status`). Client checks are the server's own rules; the server's problems land
 * on the field they name.
 *
 * @summary Customer onboarding and KYC/KYB: details, additional information, parties, documents, liveness, review.
 * @tag ramp-onboarding
 *
 * @fires ramp-customer-created - {RampCustomerCreatedEvent} Once, when the customer exists; `detail` is `{customer, session}` and the element has already adopted `session.token`.
 * @fires ramp-verification-changed - {RampVerificationChangedEvent} When the verification status this element saw changes (from an API answer or the live review); `detail` is `{customerId, status}`.
 * @fires ramp-document-uploaded - {RampDocumentUploadedEvent} Once per stored file, from the uploaders inside; `detail` is the document.
 * @fires ramp-error - {RampErrorEvent} When a call fails for a reason the user cannot fix in the form (expired session, forbidden, not found, network, server). `detail` is `{code, status, detail, requestId, operation}`.
 *
 * @csspart base - The card around everything.
 * @csspart header - Title and progress.
 * @csspart title - The heading.
 * @csspart steps - The progress list.
 * @csspart step - One step in the progress list (`aria-current="step"` on the current one).
 * @csspart intro - The sentence under the heading.
 * @csspart form - The form of the customer step.
 * @csspart type-group - The fieldset of the individual / business radio group.
 * @csspart type-option - One radio choice, its label included.
 * @csspart field - The wrapper of one field (also `field-<name>`, e.g. `field-taxId`).
 * @csspart label - A field's label.
 * @csspart input - A text, date or email input.
 * @csspart select - The country select.
 * @csspart hint - Help text under a field.
 * @csspart error - A field's error message.
 * @csspart alert - The form-level error with its retry button.
 * @csspart retry - The retry button in the alert.
 * @csspart actions - The row holding the submit button.
 * @csspart submit - The submit button.
 * @csspart back - The button back to the step before (until the review starts).
 * @csspart success - The panel shown once the customer is created.
 * @csspart summary - The customer summary list in the success panel.
 * @csspart step-title - The heading of the current step (takes focus when the step changes).
 * @csspart group - A fieldset of related fields (phone, address, a multi-choice list).
 * @csspart textarea - A multi-line input.
 * @csspart choice - A checkbox choice in a list.
 * @csspart parties - The list of associated parties (nested lists for shareholders of business shareholders).
 * @csspart party - One associated party.
 * @csspart add-party - The button that opens the add-party form.
 * @csspart party-form - The add-party form.
 * @csspart uploader - A `<ramp-document-uploader>` inside (its parts `requirement`, `dropzone`, `upload`, `progress`, `documents`, `document` are exported).
 * @csspart liveness-link - The link to the hosted verification page.
 * @csspart verification-status - The status panel of the review.
 * @csspart status-badge - The status badge in it.
 * @csspart rejection - What to correct after a temporary rejection.
 * @csspart next-steps - What the user can do after a final rejection.
 * @csspart support-link - The link to the partner's support (`support-contact`) in it.
 *
 * @cssprop --ramp-color-primary - Accent: selected choice, submit button, current step.
 * @cssprop --ramp-color-on-primary - Text on the accent.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-surface-raised - Background of the selected choice.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-text-muted - Hints and secondary text.
 * @cssprop --ramp-color-border - Borders of the card and inputs.
 * @cssprop --ramp-color-danger - Errors.
 * @cssprop --ramp-color-danger-surface - Background of the alert.
 * @cssprop --ramp-color-success - Border of the success panel.
 * @cssprop --ramp-color-success-surface - Background of the success panel.
 * @cssprop --ramp-color-focus - Focus ring.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-font-size - Base font size.
 * @cssprop --ramp-onboarding-background - Card background (default: `--ramp-color-surface`).
 * @cssprop --ramp-onboarding-border-color - Card border (default: `--ramp-color-border`).
 * @cssprop --ramp-onboarding-radius - Card radius (default: `--ramp-radius`).
 * @cssprop --ramp-onboarding-padding - Card padding.
 * @cssprop --ramp-onboarding-max-width - Card width limit (default: 34rem).
 * @cssprop --ramp-onboarding-input-background - Input background.
 * @cssprop --ramp-onboarding-input-border-color - Input border.
 * @cssprop --ramp-onboarding-choice-background - Radio choice background.
 * @cssprop --ramp-onboarding-choice-selected-background - Selected radio choice background.
 * @cssprop --ramp-onboarding-button-background - Submit button background (default: `--ramp-color-primary`).
 * @cssprop --ramp-onboarding-button-color - Submit button text (default: `--ramp-color-on-primary`).
 */
export class RampOnboarding extends RampElement {
  static override styles = onboardingStyles;

  /** The BFF's URL. Default: `/bff` beside the script's folder, i.e. `{origin}/bff` for `{origin}/sdk/ramp-widget.js`. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** The widget-session token from the partner's backend; replaced by the customer-bound token once the customer exists. */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's languages, then English. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The partner's support, shown as a link after a final rejection: an email, a phone number or an `https:` URL (anything else shows no link). */
  @property({ attribute: 'support-contact' }) supportContact = '';

  /** Keep an unfinished first step in localStorage (never the tax id) and restore it on the next visit. */
  @property({ attribute: 'keep-draft', type: Boolean }) keepDraft = false;

  @state() private step: OnboardingStep = 'customer';
  @state() private announcement = '';
  /** The customer, once created here or found for a bound session. */
  @state() private createdCustomer: Customer | undefined;
  @state() private parties: readonly AssociatedParty[] = [];
  /** Show the "account created" panel above the next step (only right after creating it here). */
  @state() private justCreated = false;
  private readonly i18n = new I18nController(this);
  /** The verification status last seen, to fire `ramp-verification-changed` on real changes only. */
  private seenStatus: Customer['verification']['status'] | undefined;
  /** The session the customer was last looked up for (a new session may be bound to another customer). */
  private probedSession = '';
  private probeAbort: AbortController | undefined;

  private readonly ctx: StepContext = this.makeContext();
  /** The steps after the first, once their chunk has arrived (see `loadKycSteps`). */
  private kyc: KycSteps | undefined;
  private kycLoading: Promise<KycSteps> | undefined;

  /** Follows the customer while a review or a liveness check is under way; stops by itself when the element leaves the page. */
  private readonly watch = new CustomerWatch(this, {
    feed: () => pollingFeed((signal) => this.client().getCustomer({ signal }), { intervalMs: this.pollIntervalMs }),
    onCustomer: (customer) => this.setCustomer(customer),
  });

  /** Milliseconds between reads while following the review. */
  pollIntervalMs = 2_000;

  /** The first step: the customer form, until the customer exists. */
  private readonly first = new CustomerStep(this, {
    i18n: this.i18n,
    client: () => this.client(),
    keepDraft: () => this.keepDraft,
    active: () => this.step === 'customer' && !this.createdCustomer,
    announce: (message) => this.announce(message),
    created: (created) => this.adopt(created),
    report: (error, operation) => this.reportError(error, operation),
  });

  /** The customer this element works on: created here, or the one the session is bound to. */
  get customer(): Customer | undefined {
    return this.createdCustomer;
  }

  /** The current step of the stepper. */
  get currentStep(): OnboardingStep {
    return this.step;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if ((changed.has('session') || changed.has('apiBase')) && this.session && this.session !== this.probedSession) void this.probe();
    this.syncWatch();
  }

  // ── the customer behind the session ──

  private client() {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  /**
   * A session bound to an existing customer resumes where that customer stands; an onboarding session (no customer
   * yet) stays on the first step. The form shows meanwhile, so a new user never waits for this.
   */
  private async probe(): Promise<void> {
    this.probedSession = this.session;
    this.probeAbort?.abort();
    const abort = (this.probeAbort = new AbortController());
    const bound = await boundCustomer(this.client(), abort.signal);
    if (!bound || abort.signal.aborted) return;
    this.seenStatus = bound.customer.verification.status;
    this.createdCustomer = bound.customer;
    this.parties = bound.parties;
    this.justCreated = false;
    this.step = bound.step;
    if (this.step === 'status') void this.loadKycSteps().then((kyc) => kyc.status.loadReason());
  }

  /** Any fresher customer record: re-render, announce and fire `ramp-verification-changed` when the status moved. */
  private setCustomer(customer: Customer): void {
    const previous = this.seenStatus;
    const status = customer.verification.status;
    this.createdCustomer = customer;
    this.seenStatus = status;
    if (previous !== undefined && previous !== status) {
      this.dispatchEvent(new RampVerificationChangedEvent({ customerId: customer.id, status }));
      this.announce(`${this.t('done.status')}: ${this.t(`status.${status}`)}`);
    }
    // The liveness check is done once the hosted page reports it (or the review already moved on).
    const livenessDone = customer.requirements.some((r) => r.name === 'LIVENESS' && r.status !== 'NOT_SENT');
    if (this.step === 'liveness' && (livenessDone || status !== 'NOT_STARTED')) void this.goTo('status');
    if (status === 'TEMPORARY_REJECTION') void this.loadKycSteps().then((kyc) => kyc.status.loadReason());
    this.syncWatch();
  }

  /** Poll while the review runs (or may start) on the status view, and while waiting for the selfie. */
  private syncWatch(): void {
    const status = this.createdCustomer?.verification.status;
    const reviewing = this.step === 'status' && (status === 'UNDER_VERIFICATION' || status === 'NOT_STARTED');
    const waitingForSelfie = this.step === 'liveness' && this.kyc?.liveness.waiting;
    if (reviewing || waitingForSelfie) this.watch?.start();
    else this.watch?.stop();
  }

  private async goTo(step: OnboardingStep): Promise<void> {
    this.step = step;
    this.justCreated = false;
    if (step === 'parties' || step === 'documents' || step === 'submit') void this.loadParties();
    if (step === 'status') void this.loadKycSteps().then((kyc) => kyc.status.loadReason());
    this.syncWatch();
    this.announce(this.t(stepsFor(this.customerType()).find((s) => s.id === step)?.label ?? 'kyc.step.status'));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#step-title')?.focus();
  }

  private async loadParties(): Promise<void> {
    if (this.createdCustomer?.type !== 'BUSINESS') return;
    try {
      this.parties = (await this.client().listAssociatedParties()).data;
    } catch (error) {
      this.reportError(error, 'listAssociatedParties');
    }
  }

  /** A document arrived (from any uploader inside): requirements changed, and a re-upload after a rejection resumes the review. */
  private onDocumentUploaded = async (): Promise<void> => {
    this.kyc?.documents.uploaded();
    try {
      this.setCustomer(await this.client().getCustomer());
      if (this.createdCustomer?.type === 'BUSINESS') this.parties = (await this.client().listAssociatedParties()).data;
    } catch {
      // The next read (continue, or the live review) brings it.
    }
  };

  private customerType(): CustomerType {
    return this.createdCustomer?.type ?? this.first.values.type;
  }

  private makeContext(): StepContext {
    // Getters, not copies: a step always reads the element's current session, customer and language.
    const host = this;
    return {
      host,
      get renderRoot() { return host.renderRoot; },
      get locale() { return host.i18n.locale; },
      get apiBase() { return host.apiBase; },
      get session() { return host.session; },
      get theme() { return host.theme; },
      get supportContact() { return host.supportContact; },
      get customer() { return host.createdCustomer; },
      get parties() { return host.parties; },
      t: (key, ...args) => host.t(key, ...args),
      plural: (base: PluralKey, count: number) => host.i18n.plural(base, count),
      client: () => host.client(),
      setCustomer: (customer) => host.setCustomer(customer),
      setParties: (parties) => {
        host.parties = parties;
      },
      goTo: (step) => host.goTo(step),
      announce: (message) => host.announce(message),
      report: (error, operation) => host.reportError(error, operation),
      focus: async (selector) => {
        await host.updateComplete;
        host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
      },
    };
  }

  private reportError(error: unknown, operation: string): void {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    this.dispatchEvent(new RampErrorEvent(errorDetailFor(error, operation)));
  }

  protected override render(): TemplateResult {
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title" @ramp-document-uploaded=${this.onDocumentUploaded}>
        <header part="header">
          <h2 id="title" part="title" class="title" tabindex="-1">${this.t('onboarding.title')}</h2>
          ${renderProgress(this.i18n, this.customerType(), this.step)}
        </header>
        ${this.justCreated && this.createdCustomer ? renderCreated(this.i18n, this.createdCustomer) : nothing} ${this.renderStep()}
        <div part="status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </section>
    `;
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private onFirstStep(): boolean {
    return this.step === 'customer' || !this.createdCustomer;
  }

  /** The later steps' code (and their messages) arrive once, when the flow first goes past the first step. */
  private loadKycSteps(): Promise<KycSteps> {
    this.kycLoading ??= import('./kyc-steps').then(
      (module) => (this.kyc = module.kycSteps(this.ctx)),
      (error: unknown) => {
        this.kycLoading = undefined; // fetched again on the next render
        throw error;
      },
    );
    return this.kycLoading;
  }

  protected override messageBundles(): readonly Bundle[] {
    return this.onFirstStep() ? ['core'] : ['core', 'kyc'];
  }

  protected override pendingCode(): Promise<unknown> | undefined {
    return this.onFirstStep() || this.kyc ? undefined : this.loadKycSteps();
  }

  private renderStep(): TemplateResult {
    if (this.onFirstStep() || this.step === 'customer') return renderCustomerForm(this.i18n, this.first);
    return this.kyc ? this.kyc[this.step].render() : html`<p part="loading" class="loading" role="status">${this.t('form.sending')}</p>`;
  }

  /** The customer exists: adopt the session bound to it, and move on to the next step. */
  private async adopt(created: BffCustomerCreated): Promise<void> {
    this.session = created.session.token;
    this.probedSession = created.session.token; // the bound session's customer is this one: nothing to look up
    this.createdCustomer = created.customer;
    this.seenStatus = created.customer.verification.status;
    this.justCreated = true;
    this.step = 'info';
    this.dispatchEvent(new RampCustomerCreatedEvent({ customer: created.customer, session: created.session }));
    this.announce(this.t('done.title'));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#done-title')?.focus();
  }

  /** Polite live region; the same sentence twice still changes the text, so it is read again. */
  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-onboarding': RampOnboarding;
  }
}
