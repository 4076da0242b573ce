// The first step of <ramp-onboarding>, as a reactive controller: the customer form's values, when each error shows,
// the draft, the create call (one customer per attempt, however often it is retried) and where its problems land.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { CreateCustomerRequest } from '../../contract/customers';
import { ADULT_AGE } from '../../contract/customer-rules';
import type { BffCustomerCreated } from '../../contract/widget-sessions';
import { NetworkError, ProblemError, type BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import type { I18nController, MessageKey, TranslateArgs } from '../../i18n';
import { clearDraft, loadDraft, saveDraft } from './draft';
import { refitTaxId, taxIdKind, taxIdTyped } from './format';
import { defaultCountry, emptyForm, fieldsFor, toRequest, type CustomerType, type FieldName, type FormValues } from './model';
import { placeFieldProblems, validateCustomer, type FieldError, type ServerFieldError } from './validators';

/** Form-level failures: the ones editing a field cannot fix. */
export type Alert =
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

type Host = ReactiveControllerHost & { readonly hasUpdated: boolean; readonly renderRoot: HTMLElement | DocumentFragment };

/** What the step needs from its element. */
export interface CustomerStepOptions {
  i18n: I18nController;
  client: () => BffClient;
  /** Keep an unfinished form in localStorage. */
  keepDraft: () => boolean;
  /** The step is on screen and no customer exists yet. */
  active: () => boolean;
  announce: (message: string) => void;
  /** The customer exists: the element adopts its session and moves on. */
  created: (created: BffCustomerCreated) => Promise<void>;
  report: (error: unknown, operation: string) => void;
}

export class CustomerStep implements ReactiveController {
  #values: FormValues = emptyForm();
  #valuesChanged = true;
  touched: ReadonlySet<FieldName> = new Set();
  submitted = false;
  serverErrors: Partial<Record<FieldName, ServerFieldError>> = {};
  alert: Alert | undefined;
  /** The country select holds every country (false: Brazil and the current value, until idle or until it is used). */
  allCountries = false;
  #clientErrors: Partial<Record<FieldName, FieldError>> = {};
  /** Cancels the pending fill of the whole country list (its timer, then its idle callback). */
  #cancelAllCountries: (() => void) | undefined;
  #countriesScheduled = false;
  readonly #keys = new IdempotencyKeys();

  readonly #task: Task<CreateArgs, BffCustomerCreated>;

  constructor(
    private readonly host: Host,
    private readonly opts: CustomerStepOptions,
  ) {
    host.addController(this);
    this.#task = new Task(host, {
      autoRun: false,
      task: ([request, idempotencyKey]: CreateArgs, { signal }) => opts.client().createCustomer(request, { idempotencyKey, signal }),
      onComplete: (created) => void this.#adopt(created),
      onError: (error) => void this.#fail(error),
    });
  }

  get values(): FormValues {
    return this.#values;
  }

  private set values(values: FormValues) {
    this.#values = values;
    this.#valuesChanged = true;
    this.host.requestUpdate();
  }

  get busy(): boolean {
    return this.#task.status === TaskStatus.PENDING;
  }

  hostUpdate(): void {
    if (!this.host.hasUpdated && this.opts.keepDraft() && this.opts.active()) this.#values = loadDraft() ?? this.#values;
    if (!this.#valuesChanged) return;
    this.#valuesChanged = false;
    if (this.opts.keepDraft() && this.host.hasUpdated && this.opts.active()) saveDraft(this.#values);
    this.#clientErrors = validateCustomer(this.#values, new Date());
  }

  hostUpdated(): void {
    if (this.#countriesScheduled) return;
    this.#countriesScheduled = true;
    // The whole country list (there for autofill) when the page is idle, but not in the first second after the first
    // step painted: that is when a person starts typing, and naming, sorting and rendering 250 countries is one long
    // task that their first keystroke would wait behind. Focus or a pointer on the select
    // fills it at once.
    const timer = window.setTimeout(() => {
      if (typeof requestIdleCallback !== 'function') return this.showAllCountries();
      const idle = requestIdleCallback(this.showAllCountries, { timeout: 1000 });
      this.#cancelAllCountries = () => cancelIdleCallback(idle);
    }, COUNTRIES_AFTER_MS);
    this.#cancelAllCountries = () => window.clearTimeout(timer);
  }

  hostDisconnected(): void {
    this.#cancelAllCountries?.();
    this.#cancelAllCountries = undefined;
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.opts.i18n.t(key, ...args);
  }

  // ── what the user sees about each field ──

  labelFor(field: FieldName): string {
    if (field === 'taxId') return this.t(`field.taxId.${taxIdKind(this.values.type, this.values.country)}`);
    // A person's country is the one that issued their tax id; a company's, where it was incorporated.
    if (field === 'country' && this.values.type === 'INDIVIDUAL') return this.t('field.country.INDIVIDUAL');
    return this.t(`field.${field}`);
  }

  hintFor(field: FieldName): string | undefined {
    if (field === 'country') return this.values.type === 'INDIVIDUAL' ? this.t('field.country.INDIVIDUAL.hint') : undefined;
    if (field !== 'taxId') return undefined;
    const kind = taxIdKind(this.values.type, this.values.country);
    if (kind === 'other' && this.values.type === 'INDIVIDUAL') return this.t('field.taxId.other.INDIVIDUAL.hint');
    return this.t(`field.taxId.${kind}.hint`);
  }

  /** Server errors show at once; client errors once the field was left or a submit was tried. */
  visibleError(field: FieldName): string | undefined {
    const server = this.serverErrors[field];
    if (server) return this.#serverErrorText(server);
    if (!this.submitted && !this.touched.has(field)) return undefined;
    const error = this.#clientErrors[field];
    return error ? this.#ruleText(error, field) : undefined;
  }

  #ruleText(error: FieldError, field?: FieldName): string {
    if (error === 'underage') return this.t('error.underage', { age: ADULT_AGE });
    if (error === 'required' && field === 'country') return this.t('error.required.country');
    return this.t(`error.${error}`);
  }

  #serverErrorText(error: ServerFieldError): string {
    switch (error.kind) {
      case 'rule':
        return this.#ruleText(error.error);
      case 'duplicate':
        return this.t('error.duplicate');
      case 'code':
        return this.t(error.key);
    }
  }

  #invalidFields(): FieldName[] {
    return fieldsFor(this.values.type).filter((f) => this.serverErrors[f] || this.#clientErrors[f]);
  }

  // ── input ──

  #setValue(field: FieldName, value: string): void {
    if (this.values[field] === value) return;
    this.values = { ...this.values, [field]: value };
    if (this.serverErrors[field]) {
      const { [field]: _, ...rest } = this.serverErrors;
      this.serverErrors = rest;
    }
  }

  onInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    this.#setValue(input.name as FieldName, input.value);
  };

  onTaxIdInput = (event: InputEvent): void => {
    const kind = taxIdKind(this.values.type, this.values.country);
    this.#setValue('taxId', taxIdTyped(event, kind, this.values.taxId, (this.host as unknown as Element).shadowRoot));
  };

  showAllCountries = (): void => {
    if (this.allCountries) return;
    this.allCountries = true;
    this.host.requestUpdate();
  };

  onCountryChange = (event: Event): void => {
    const country = (event.target as HTMLSelectElement).value;
    const kind = taxIdKind(this.values.type, country);
    this.#setValue('country', country);
    this.#setValue('taxId', refitTaxId(kind, this.values.taxId));
    this.#markTouched('country');
  };

  onTypeChange = (event: Event): void => {
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

  onBlur = (event: FocusEvent): void => {
    const field = (event.target as HTMLInputElement).name as FieldName;
    // A field removed while focused (type switch, success) blurs during the render: the user did not leave it.
    if (!this.opts.active() || !fieldsFor(this.values.type).includes(field)) return;
    this.#markTouched(field);
  };

  #markTouched(field: FieldName): void {
    if (!this.touched.has(field)) this.touched = new Set([...this.touched, field]);
    this.host.requestUpdate();
    const error = this.serverErrors[field] ?? this.#clientErrors[field];
    // Say the error the user just walked away from; focus is already on the next field, so it is not read otherwise.
    if (error && !this.submitted) {
      const message = this.visibleError(field);
      if (message) this.opts.announce(this.t('form.fieldError', { field: this.labelFor(field), message }));
    }
  }

  // ── submission ──

  onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  onRetry = (): void => {
    void this.submit();
  };

  async submit(): Promise<void> {
    if (this.busy) return; // a double click sends one request
    this.submitted = true;
    this.alert = undefined;
    this.#clientErrors = validateCustomer(this.values, new Date());
    this.host.requestUpdate();
    const invalid = this.#invalidFields();
    if (invalid.length > 0) {
      this.opts.announce(this.opts.i18n.plural('form.invalid', invalid.length));
      await this.host.updateComplete;
      this.#focusField(invalid[0]!);
      return;
    }
    const request = toRequest(this.values);
    // Same data as the last attempt (a retry after a failure) → same key, so the server creates at most one customer.
    const key = this.#keys.keyFor(request);
    this.opts.announce(this.t('form.sending'));
    await this.#task.run([request, key]);
  }

  async #adopt(created: BffCustomerCreated): Promise<void> {
    this.#keys.reset();
    clearDraft();
    await this.opts.created(created);
  }

  async #fail(error: unknown): Promise<void> {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    this.host.requestUpdate();
    if (error instanceof ProblemError) {
      if (isDuplicateTaxId(error)) {
        this.serverErrors = { ...this.serverErrors, taxId: { kind: 'duplicate' } };
        return this.#showFieldErrors();
      }
      if (error.status === 409) {
        // Not about the data: this session already made its customer (e.g. an earlier answer was lost). Only a new session helps.
        this.alert = { kind: 'CONFLICT' };
      } else if (error.status === 400 || error.status === 422) {
        const { fields, unplaced } = placeFieldProblems(error.errors, this.values.type);
        const placed = Object.keys(fields).length > 0;
        if (placed) this.serverErrors = { ...this.serverErrors, ...fields };
        if (placed && unplaced.length === 0) return this.#showFieldErrors();
        this.alert = { kind: 'VALIDATION_FAILED' };
      } else if (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND') {
        this.alert = { kind: error.code };
      } else {
        this.alert = { kind: 'OTHER', code: error.code };
      }
    } else if (error instanceof NetworkError) {
      this.alert = { kind: 'NETWORK' };
    } else {
      this.alert = { kind: 'OTHER', code: 'CLIENT_ERROR' };
    }
    this.opts.report(error, 'createCustomer');
  }

  async #showFieldErrors(): Promise<void> {
    const invalid = this.#invalidFields();
    this.opts.announce(this.opts.i18n.plural('form.invalid', invalid.length));
    await this.host.updateComplete;
    if (invalid[0]) this.#focusField(invalid[0]);
  }

  #focusField(field: FieldName): void {
    this.host.renderRoot.querySelector<HTMLElement>(`#${field}`)?.focus();
  }
}
