// <ramp-onboarding>: the KYC/KYB stepper: creates the customer, then additional information, parties, documents, liveness or start, and the review.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import { Task, TaskStatus } from '@lit/task';
import type { CreateCustomerRequest, Customer } from '../../contract/customers';
import type { AssociatedParty } from '../../contract/kyc';
import { ADULT_AGE, isoDay } from '../../contract/customer-rules';
import type { BffCustomerCreated } from '../../contract/widget-sessions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, NetworkError, ProblemError } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { pollingFeed } from '../../client/feed';
import { RampCustomerCreatedEvent } from '../../events/customer-created';
import { RampErrorEvent, type RampErrorDetail } from '../../events/error';
import { RampVerificationChangedEvent } from '../../events/verification-changed';
import { CustomerWatch } from '../customer-watch';
import { I18nController, formatInstant, type MessageKey, type PluralKey, type TranslateArgs } from '../../i18n';
import type { KycSteps } from './kyc-steps';
import { clearDraft, loadDraft, saveDraft } from './draft';
import type { StepContext } from './step-context';
import { countryOptions, fewCountryOptions } from './countries';
import { refitTaxId, reformatTaxId, taxIdKind, taxIdMaxLength } from './format';
import { customerTypes, defaultCountry, emptyForm, fieldsFor, isOptional, toRequest, type CustomerType, type FieldName, type FormValues } from './model';
import { supportReference } from '../support-reference';
import { onboardingStyles } from './onboarding.styles';
import { stepsFor, type OnboardingStep } from './steps';
import { placeFieldProblems, validateCustomer, type FieldError, type ServerFieldError } from './validators';

/** An empty string removes the attribute instead of leaving `session=""` or `lang=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

/** Form-level failures: the ones editing a field cannot fix. */
type Alert =
  | { kind: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'NETWORK' }
  | { kind: 'CONFLICT' }
  | { kind: 'VALIDATION_FAILED' }
  | { kind: 'OTHER'; code: string };

/** A 409 about the data: the partner already has a customer with this tax id (the body names it). */
function isDuplicateTaxId(error: ProblemError): boolean {
  return (
    error.status === 409 &&
    (typeof error.problem.existingCustomerId === 'string' || error.errors.some((e) => e.path.split(/[./]/).includes('taxId')))
  );
}

type CreateArgs = readonly [request: CreateCustomerRequest, idempotencyKey: string];

/** How long after the first step painted the whole country list may fill in (when the page is idle). */
const COUNTRIES_AFTER_MS = 1000;

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

  /** Keep an unfinished first step in localStorage (never the tax id) and restore it on the next visit. */
  @property({ attribute: 'keep-draft', type: Boolean }) keepDraft = false;

  @state() private step: OnboardingStep = 'customer';
  @state() private values: FormValues = emptyForm();
  @state() private touched: ReadonlySet<FieldName> = new Set();
  @state() private submitted = false;
  @state() private serverErrors: Partial<Record<FieldName, ServerFieldError>> = {};
  @state() private alert: Alert | undefined;
  @state() private announcement = '';
  /** The customer, once created here or found for a bound session. */
  @state() private createdCustomer: Customer | undefined;
  @state() private parties: readonly AssociatedParty[] = [];
  /** Show the "account created" panel above the next step (only right after creating it here). */
  @state() private justCreated = false;
  /** The country select holds every country (false: Brazil and the current value, until idle or until it is used). */
  @state() private allCountries = false;
  /** Cancels the pending fill of the whole country list (its timer, then its idle callback). */
  private cancelAllCountries: (() => void) | undefined;

  private readonly i18n = new I18nController(this);
  private readonly idempotencyKeys = new IdempotencyKeys();
  private clientErrors: Partial<Record<FieldName, FieldError>> = {};
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

  private readonly createTask = new Task(this, {
    autoRun: false,
    task: ([request, idempotencyKey]: CreateArgs, { signal }) =>
      createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession }).createCustomer(request, { idempotencyKey, signal }),
    onComplete: (created) => void this.adopt(created),
    onError: (error) => void this.fail(error),
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
    if (this.keepDraft && !this.hasUpdated && !this.createdCustomer) this.values = loadDraft() ?? this.values;
    if (changed.has('values') && this.keepDraft && this.hasUpdated && this.step === 'customer' && !this.createdCustomer) saveDraft(this.values);
    if (changed.has('values')) this.clientErrors = validateCustomer(this.values, new Date());
    if ((changed.has('session') || changed.has('apiBase')) && this.session && this.session !== this.probedSession) void this.probe();
    this.syncWatch();
  }

  // ── the customer behind the session ──

  private client() {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  /**
   * A session bound to an existing customer resumes where that customer stands; an onboarding session (no customer
   * yet) stays on the first step. The form shows meanwhile, so a new user never waits for this. Asking the session
   * first spares every new user's console a 404 from `GET customer`.
   */
  private async probe(): Promise<void> {
    this.probedSession = this.session;
    this.probeAbort?.abort();
    const abort = (this.probeAbort = new AbortController());
    try {
      const client = this.client();
      const { customerId } = await client.getSession({ signal: abort.signal });
      if (!customerId || abort.signal.aborted) return;
      const customer = await client.getCustomer({ signal: abort.signal });
      if (abort.signal.aborted) return;
      const business = customer.type === 'BUSINESS';
      // Only a returning customer needs the resume rules: a chunk of their own, off the first step's budget.
      const resume = import('./resume');
      const [parties, verifications] = business
        ? await Promise.all([
            client.listAssociatedParties({ signal: abort.signal }).then((p) => p.data),
            client.listVerifications({ signal: abort.signal }).then((v) => v.data),
          ])
        : [[], []];
      const { resumeStep } = await resume;
      if (abort.signal.aborted) return;
      this.seenStatus = customer.verification.status;
      this.createdCustomer = customer;
      this.parties = parties;
      this.justCreated = false;
      this.step = resumeStep(customer, { parties, verificationRequested: verifications.length > 0 });
      if (this.step === 'status') void this.loadKycSteps().then((kyc) => kyc.status.loadReason());
    } catch {
      // No customer behind this session (an onboarding session), or it cannot be read now: the first step stays.
    }
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
    return this.createdCustomer?.type ?? this.values.type;
  }

  private makeContext(): StepContext {
    // Getters, not copies: a step always reads the element's current session, customer and language.
    const host = this;
    return {
      host,
      get renderRoot() {
        return host.renderRoot;
      },
      get locale() {
        return host.i18n.locale;
      },
      get apiBase() {
        return host.apiBase;
      },
      get session() {
        return host.session;
      },
      get theme() {
        return host.theme;
      },
      get customer() {
        return host.createdCustomer;
      },
      get parties() {
        return host.parties;
      },
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
    if (error instanceof ProblemError) {
      this.dispatchEvent(
        new RampErrorEvent({ code: error.code, status: error.status, detail: error.detail, ...(error.requestId ? { requestId: error.requestId } : {}), operation }),
      );
    } else if (error instanceof NetworkError) {
      this.dispatchEvent(new RampErrorEvent({ code: 'NETWORK_ERROR', status: null, detail: error.message, operation }));
    } else {
      this.dispatchEvent(new RampErrorEvent({ code: 'CLIENT_ERROR', status: null, detail: error instanceof Error ? error.message : String(error), operation }));
    }
  }

  protected override render(): TemplateResult {
    return html`
      <section part="base" class="base" lang=${this.i18n.locale} aria-labelledby="title" @ramp-document-uploaded=${this.onDocumentUploaded}>
        <header part="header">
          <h2 id="title" part="title" class="title" tabindex="-1">${this.t('onboarding.title')}</h2>
          ${this.renderSteps()}
        </header>
        ${this.justCreated ? this.renderDone() : nothing} ${this.renderStep()}
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
    if (this.onFirstStep()) return this.renderCustomerStep();
    const kyc = this.kyc;
    if (!kyc) return html`<p part="loading" class="loading" role="status">${this.t('form.sending')}</p>`;
    switch (this.step) {
      case 'info':
        return kyc.info.render();
      case 'parties':
        return kyc.parties.render();
      case 'documents':
        return kyc.documents.render();
      case 'liveness':
        return kyc.liveness.render();
      case 'submit':
        return kyc.submit.render();
      case 'status':
        return kyc.status.render();
      case 'customer':
        return this.renderCustomerStep();
    }
  }

  private renderSteps(): TemplateResult {
    const steps = stepsFor(this.customerType());
    return html`
      <ol part="steps" class="steps" aria-label=${this.t('onboarding.progress')}>
        ${steps.map(
          (step, i) => html`
            <li part="step" class="step" data-step=${step.id} aria-current=${step.id === this.step ? 'step' : nothing}>
              <span class="step-number" aria-hidden="true">${i + 1}</span>
              <span class="visually-hidden">${this.t('onboarding.stepOf', { current: i + 1, total: steps.length })}:</span>
              <span class="step-label">${this.t(step.label)}</span>
            </li>
          `,
        )}
      </ol>
    `;
  }

  private renderCustomerStep(): TemplateResult {
    const busy = this.createTask.status === TaskStatus.PENDING;
    return html`
      <p id="intro" part="intro" class="intro">${this.t('onboarding.intro')}</p>
      <form part="form" novalidate aria-busy=${busy ? 'true' : 'false'} @submit=${this.onSubmit}>
        ${this.renderAlert()}
        <fieldset part="type-group" class="type-group">
          <legend>${this.t('type.legend')}</legend>
          <div class="choices">
            ${customerTypes.map(
              (type) => html`
                <label part="type-option" class="choice">
                  <input
                    type="radio"
                    name="type"
                    value=${type}
                    data-testid="type-${type}"
                    .checked=${this.values.type === type}
                    aria-describedby="type-${type}-hint"
                    @change=${this.onTypeChange}
                  />
                  <span class="choice-text">
                    <span>${this.t(`type.${type}`)}</span>
                    <span id="type-${type}-hint" part="hint" class="hint">${this.t(`type.${type}.hint`)}</span>
                  </span>
                </label>
              `,
            )}
          </div>
        </fieldset>
        ${fieldsFor(this.values.type).map((field) => this.renderField(field))}
        <div part="actions" class="actions">
          <button part="submit" class="submit" type="submit" data-testid="submit" aria-disabled=${busy ? 'true' : 'false'}>
            ${busy ? this.t('form.submitting') : this.t('form.submit')}
          </button>
        </div>
      </form>
    `;
  }

  private renderField(field: FieldName): TemplateResult {
    const error = this.visibleError(field);
    const hint = this.hintFor(field);
    const describedBy = [hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' ');
    const optional = isOptional(this.values.type, field);
    return html`
      <div part="field field-${field}" class="field">
        <label part="label" for=${field}>
          ${this.labelFor(field)}${optional ? html` <span class="optional">(${this.t('field.optional')})</span>` : nothing}
        </label>
        ${this.renderControl(field, Boolean(error), describedBy, !optional)}
        ${hint ? html`<p id="${field}-hint" part="hint" class="hint">${hint}</p>` : nothing}
        ${error ? html`<p id="${field}-error" part="error" class="error" data-testid="${field}-error">${error}</p>` : nothing}
      </div>
    `;
  }

  private renderControl(field: FieldName, invalid: boolean, describedBy: string, required: boolean): TemplateResult {
    const common = {
      invalid: invalid ? 'true' : 'false',
      describedBy: describedBy || nothing,
    };
    const today = isoDay(new Date());
    switch (field) {
      case 'country':
        return html`
          <select
            id="country"
            name="country"
            part="select"
            autocomplete="country"
            ?required=${required}
            aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy}
            @change=${this.onCountryChange}
            @blur=${this.onBlur}
            @focus=${this.showAllCountries}
            @pointerdown=${this.showAllCountries}
          >
            <option value="" ?selected=${!this.values.country}>${this.t('field.country.placeholder')}</option>
            ${(this.allCountries ? countryOptions(this.i18n.locale) : fewCountryOptions(this.i18n.locale, ['BRA'], this.values.country)).map(
              (c) => html`<option value=${c.code} ?selected=${c.code === this.values.country}>${c.name}</option>`,
            )}
          </select>
        `;
      case 'taxId': {
        const kind = taxIdKind(this.values.type, this.values.country);
        return html`
          <input
            id="taxId"
            name="taxId"
            part="input"
            type="text"
            inputmode=${kind === 'cpf' ? 'numeric' : 'text'}
            autocomplete="off"
            autocapitalize="characters"
            spellcheck="false"
            maxlength=${taxIdMaxLength[kind]}
            ?required=${required}
            aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy}
            .value=${this.values.taxId}
            @input=${this.onTaxIdInput}
            @blur=${this.onBlur}
          />
        `;
      }
      case 'birthDate':
      case 'incorporationDate':
        return html`
          <input
            id=${field}
            name=${field}
            part="input"
            type="date"
            min="1900-01-01"
            max=${today}
            autocomplete=${field === 'birthDate' ? 'bday' : 'off'}
            ?required=${required}
            aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy}
            .value=${this.values[field]}
            @input=${this.onInput}
            @change=${this.onInput}
            @blur=${this.onBlur}
          />
        `;
      case 'email':
        return html`
          <input
            id="email"
            name="email"
            part="input"
            type="email"
            inputmode="email"
            autocomplete="email"
            spellcheck="false"
            maxlength="254"
            ?required=${required}
            aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy}
            .value=${this.values.email}
            @input=${this.onInput}
            @blur=${this.onBlur}
          />
        `;
      case 'name':
      case 'legalName':
        return html`
          <input
            id=${field}
            name=${field}
            part="input"
            type="text"
            autocomplete=${field === 'name' ? 'name' : 'organization'}
            maxlength="200"
            ?required=${required}
            aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy}
            .value=${this.values[field]}
            @input=${this.onInput}
            @blur=${this.onBlur}
          />
        `;
    }
  }

  private renderAlert(): TemplateResult | typeof nothing {
    const alert = this.alert;
    if (!alert) return nothing;
    const message =
      alert.kind === 'VALIDATION_FAILED'
        ? this.t('alert.VALIDATION_FAILED')
        : alert.kind === 'OTHER'
          ? this.t('alert.OTHER', { code: alert.code })
          : this.t(`alert.${alert.kind}`);
    return html`
      <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
        <p>${message}</p>
        ${alert.kind === 'VALIDATION_FAILED' || alert.kind === 'CONFLICT'
          ? nothing
          : html`<button part="retry" class="retry" type="button" data-testid="retry" @click=${this.onRetry}>${this.t('alert.retry')}</button>`}
      </div>
    `;
  }

  private renderDone(): TemplateResult {
    const customer = this.createdCustomer;
    if (!customer) return html``;
    const name = customer.name ?? customer.legalName ?? '';
    return html`
      <div part="success" class="success" data-testid="success">
        <h3 id="done-title" class="success-title" tabindex="-1">${this.t('done.title')}</h3>
        <p>${this.t('done.body', { name })}</p>
        <dl part="summary" class="summary">
          <dt>${this.t('done.status')}</dt>
          <dd>${this.t(`status.${customer.verification.status}`)}</dd>
          <dt>${this.t('done.createdAt')}</dt>
          <dd>${formatInstant(customer.createdAt, this.i18n.locale)}</dd>
        </dl>
        ${supportReference(this.t('done.reference'), customer.id, 'customer-id')}
      </div>
    `;
  }

  // ── what the user sees about each field ──

  private labelFor(field: FieldName): string {
    if (field === 'taxId') return this.t(`field.taxId.${taxIdKind(this.values.type, this.values.country)}`);
    // A person's country is the one that issued their tax id; a company's, where it was incorporated.
    if (field === 'country' && this.values.type === 'INDIVIDUAL') return this.t('field.country.INDIVIDUAL');
    return this.t(`field.${field}`);
  }

  private hintFor(field: FieldName): string | undefined {
    if (field === 'country') return this.values.type === 'INDIVIDUAL' ? this.t('field.country.INDIVIDUAL.hint') : undefined;
    if (field !== 'taxId') return undefined;
    const kind = taxIdKind(this.values.type, this.values.country);
    if (kind === 'other' && this.values.type === 'INDIVIDUAL') return this.t('field.taxId.other.INDIVIDUAL.hint');
    return this.t(`field.taxId.${kind}.hint`);
  }

  /** Server errors show at once; client errors once the field was left or a submit was tried. */
  private visibleError(field: FieldName): string | undefined {
    const server = this.serverErrors[field];
    if (server) return this.serverErrorText(server);
    if (!this.submitted && !this.touched.has(field)) return undefined;
    const error = this.clientErrors[field];
    return error ? this.ruleText(error, field) : undefined;
  }

  private ruleText(error: FieldError, field?: FieldName): string {
    if (error === 'underage') return this.t('error.underage', { age: ADULT_AGE });
    if (error === 'required' && field === 'country') return this.t('error.required.country');
    return this.t(`error.${error}`);
  }

  private serverErrorText(error: ServerFieldError): string {
    switch (error.kind) {
      case 'rule':
        return this.ruleText(error.error);
      case 'duplicate':
        return this.t('error.duplicate');
      case 'code':
        return this.t(error.key);
    }
  }

  private invalidFields(): FieldName[] {
    return fieldsFor(this.values.type).filter((f) => this.serverErrors[f] || this.clientErrors[f]);
  }

  // ── input ──

  private setValue(field: FieldName, value: string): void {
    if (this.values[field] === value) return;
    this.values = { ...this.values, [field]: value };
    if (this.serverErrors[field]) {
      const { [field]: _, ...rest } = this.serverErrors;
      this.serverErrors = rest;
    }
  }

  private onInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    this.setValue(input.name as FieldName, input.value);
  };

  private onTaxIdInput = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const kind = taxIdKind(this.values.type, this.values.country);
    const edit = reformatTaxId(kind, input.value, input.selectionStart ?? input.value.length, this.values.taxId, event.inputType);
    if (input.value !== edit.value) input.value = edit.value;
    if (this.shadowRoot?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
    this.setValue('taxId', edit.value);
  };

  private showAllCountries = (): void => {
    this.allCountries = true;
  };

  protected override firstUpdated(changed: PropertyValues): void {
    super.firstUpdated(changed);
    // The whole country list (there for autofill) when the page is idle, but not in the first second after the first
    // step painted: that is when a person starts typing, and naming, sorting and rendering 250 countries is one long
    // task (~90 ms on a 4× throttled CPU) that their first keystroke would wait behind. Focus or a pointer on the select
    // fills it at once.
    const timer = window.setTimeout(() => {
      if (typeof requestIdleCallback !== 'function') return this.showAllCountries();
      const idle = requestIdleCallback(this.showAllCountries, { timeout: 1000 });
      this.cancelAllCountries = () => cancelIdleCallback(idle);
    }, COUNTRIES_AFTER_MS);
    this.cancelAllCountries = () => window.clearTimeout(timer);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.cancelAllCountries?.();
    this.cancelAllCountries = undefined;
  }

  private onCountryChange = (event: Event): void => {
    const country = (event.target as HTMLSelectElement).value;
    const kind = taxIdKind(this.values.type, country);
    this.setValue('country', country);
    this.setValue('taxId', refitTaxId(kind, this.values.taxId));
    this.markTouched('country');
  };

  private onTypeChange = (event: Event): void => {
    const type = (event.target as HTMLInputElement).value as CustomerType;
    if (type === this.values.type) return;
    // A CPF is no CNPJ: start the tax id over; other typed values stay in case the user switches back. A country the
    // user did not choose is the new type's default (Brazil preselected for a person, chosen by a company).
    const country = this.touched.has('country') ? this.values.country : defaultCountry(type);
    this.values = { ...this.values, type, country, taxId: '' };
    this.touched = new Set([...this.touched].filter((f) => f !== 'taxId'));
    this.serverErrors = {};
    this.submitted = false;
    this.alert = undefined;
  };

  private onBlur = (event: FocusEvent): void => {
    const field = (event.target as HTMLInputElement).name as FieldName;
    // A field removed while focused (type switch, success) blurs during the render: the user did not leave it.
    if (this.step !== 'customer' || !fieldsFor(this.values.type).includes(field)) return;
    this.markTouched(field);
  };

  private markTouched(field: FieldName): void {
    if (!this.touched.has(field)) this.touched = new Set([...this.touched, field]);
    const error = this.serverErrors[field] ?? this.clientErrors[field];
    // Say the error the user just walked away from; focus is already on the next field, so it is not read otherwise.
    if (error && !this.submitted) {
      const message = this.visibleError(field);
      if (message) this.announce(this.t('form.fieldError', { field: this.labelFor(field), message }));
    }
  }

  // ── submission ──

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  private onRetry = (): void => {
    void this.submit();
  };

  private async submit(): Promise<void> {
    if (this.createTask.status === TaskStatus.PENDING) return; // a double click sends one request
    this.submitted = true;
    this.alert = undefined;
    this.clientErrors = validateCustomer(this.values, new Date());
    const invalid = this.invalidFields();
    if (invalid.length > 0) {
      this.announce(this.i18n.plural('form.invalid', invalid.length));
      await this.updateComplete;
      this.focusField(invalid[0]!);
      return;
    }
    const request = toRequest(this.values);
    // Same data as the last attempt (a retry after a failure) → same key, so the server creates at most one customer.
    const key = this.idempotencyKeys.keyFor(request);
    this.announce(this.t('form.sending'));
    await this.createTask.run([request, key]);
  }

  private async adopt(created: BffCustomerCreated): Promise<void> {
    this.idempotencyKeys.reset();
    clearDraft();
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

  private async fail(error: unknown): Promise<void> {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    if (error instanceof ProblemError) {
      if (isDuplicateTaxId(error)) {
        this.serverErrors = { ...this.serverErrors, taxId: { kind: 'duplicate' } };
        return this.showFieldErrors();
      }
      if (error.status === 409) {
        // Not about the data: this session already made its customer (e.g. an earlier answer was lost). Only a new session helps.
        this.alert = { kind: 'CONFLICT' };
      } else if (error.status === 400 || error.status === 422) {
        const { fields, unplaced } = placeFieldProblems(error.errors, this.values.type);
        const placed = Object.keys(fields).length > 0;
        if (placed) this.serverErrors = { ...this.serverErrors, ...fields };
        if (placed && unplaced.length === 0) return this.showFieldErrors();
        this.alert = { kind: 'VALIDATION_FAILED' };
      } else if (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND') {
        this.alert = { kind: error.code };
      } else {
        this.alert = { kind: 'OTHER', code: error.code };
      }
      this.report({ code: error.code, status: error.status, detail: error.detail, ...(error.requestId ? { requestId: error.requestId } : {}) });
    } else if (error instanceof NetworkError) {
      this.alert = { kind: 'NETWORK' };
      this.report({ code: 'NETWORK_ERROR', status: null, detail: error.message });
    } else {
      this.alert = { kind: 'OTHER', code: 'CLIENT_ERROR' };
      this.report({ code: 'CLIENT_ERROR', status: null, detail: error instanceof Error ? error.message : String(error) });
    }
  }

  private async showFieldErrors(): Promise<void> {
    const invalid = this.invalidFields();
    this.announce(this.i18n.plural('form.invalid', invalid.length));
    await this.updateComplete;
    if (invalid[0]) this.focusField(invalid[0]);
  }

  private report(detail: Omit<RampErrorDetail, 'operation'>): void {
    this.dispatchEvent(new RampErrorEvent({ ...detail, operation: 'createCustomer' }));
  }

  private focusField(field: FieldName): void {
    this.renderRoot.querySelector<HTMLElement>(`#${field}`)?.focus();
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
