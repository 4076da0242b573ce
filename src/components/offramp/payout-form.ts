// The payout form of <ramp-offramp>: the purpose chosen for the picked account, when each field's error shows, the server's word on them, and its template.
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { ProblemError } from '../../client/bff-client';
import type { BankAccount } from '../../contract/bank-accounts';
import type { Quote } from '../../contract/exchange-rates';
import type { I18nController } from '../../i18n';
import type { FieldProblemKey } from '../../i18n/problem-words';
import { placeFieldProblems } from '../transaction/problems';
import { purposeSelect } from '../transaction/purpose-select';
import { isPurpose, type Purpose } from '../transaction/purposes';
import { identifierText } from './format';
import { purposeFits, unavailableReason } from './payout';

export type PayoutField = 'account' | 'purpose';

/** What the form shows besides its own fields. */
export interface PayoutFormView {
  /** The create call is under way. */
  busy: boolean;
  /** Nothing to pay with (a partner's mistake): the button stays disabled. */
  missing: boolean;
  /** The locked quote expired: no confirm button, the summary offers a new quote. */
  expired: boolean;
  alert: TemplateResult | typeof nothing;
  keyTypeName: (keyType: string) => string;
  submit: (event: SubmitEvent) => void;
}

/** Errors show after the user left the field or tried to confirm (lion's "touched"), or when the server refused a value. */
export class PayoutForm {
  #selected = '';
  #touched = false;
  #submitted = false;
  #serverErrors: Partial<Record<PayoutField, FieldProblemKey>> = {};

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly i18n: I18nController,
    /** The bank account picked in the list. */
    private readonly account: () => BankAccount | undefined,
    /** Whether the form is on screen: a select removed while focused blurs during that render, and the user did not leave it. */
    private readonly shown: () => boolean,
  ) {}

  /** The user tried to confirm: empty fields now say so. */
  markSubmitted(): void {
    this.#submitted = true;
    this.host.requestUpdate();
  }

  /** The account and purpose to pay with, or the fields to fix (as selectors to focus, the first first). */
  check(quote: Quote | undefined): { account: BankAccount; purpose: Purpose } | { invalid: string[] } {
    const account = this.account();
    const purpose = this.#selected;
    const invalid: string[] = [];
    if (!account || unavailableReason(account, quote)) invalid.push('input[name="bankAccount"]:not(:disabled)');
    if (!isPurpose(purpose) || !purposeFits(purpose, account)) invalid.push('#offramp-purpose');
    return account && isPurpose(purpose) && invalid.length === 0 ? { account, purpose } : { invalid };
  }

  /** A new payout: the choice stays, the errors go. */
  reset(): void {
    this.#submitted = false;
    this.#touched = false;
    this.#serverErrors = {};
    this.host.requestUpdate();
  }

  /** Another account was picked: the server's word on the old one goes; `true` when the purpose no longer fits it. */
  accountChosen(): boolean {
    this.#forget('account');
    const purpose = this.#selected;
    return isPurpose(purpose) && !purposeFits(purpose, this.account());
  }

  /**
   * A 400's field problems land on their fields; when none is left over, the number placed and the field to focus
   * (the account's radio or the purpose), else undefined (the alert tells the rest).
   */
  placed(error: unknown): { count: number; focus: string } | undefined {
    if (!(error instanceof ProblemError) || error.status !== 400) return undefined;
    const { fields, unplaced } = placeFieldProblems<PayoutField>(error.errors, (segments) =>
      segments[0] === 'purpose' ? 'purpose' : segments[0] === 'bankAccountId' ? 'account' : undefined,
    );
    this.#serverErrors = { ...this.#serverErrors, ...fields };
    this.host.requestUpdate();
    const count = Object.keys(fields).length;
    if (count === 0 || unplaced.length > 0) return undefined;
    return { count, focus: fields.account ? 'input[name="bankAccount"]:not(:disabled)' : '#offramp-purpose' };
  }

  error(field: PayoutField): string | undefined {
    const server = this.#serverErrors[field];
    if (server) return this.i18n.t(server);
    if (field === 'account') {
      return this.#submitted && !this.account() ? this.i18n.t('offramp.account.required') : undefined;
    }
    const purpose = this.#selected;
    if (isPurpose(purpose) && !purposeFits(purpose, this.account())) return this.i18n.t('offramp.purpose.selfOnly');
    if (!purpose && (this.#submitted || this.#touched)) return this.i18n.t('offramp.purpose.required');
    return undefined;
  }

  #forget(field: PayoutField): void {
    const { [field]: _, ...rest } = this.#serverErrors;
    this.#serverErrors = rest;
    this.host.requestUpdate();
  }

  #onChange = (event: Event): void => {
    this.#selected = (event.target as HTMLSelectElement).value;
    this.#forget('purpose');
  };

  #onBlur = (): void => {
    if (!this.shown()) return;
    this.#touched = true;
    this.host.requestUpdate();
  };

  render(view: PayoutFormView): TemplateResult {
    const { busy } = view;
    const account = this.account();
    const selfOnly = account !== undefined && account.holder.relationship !== 'SELF';
    return html`
      <form part="form" class="section" novalidate aria-busy=${busy ? 'true' : 'false'} data-testid="payout-form" @submit=${view.submit}>
        ${view.alert}
        ${account
          ? html`<p class="muted" data-testid="selected-account">${this.i18n.t('offramp.to')}: ${account.name} · ${identifierText(account, view.keyTypeName)}</p>`
          : nothing}
        ${purposeSelect(this.i18n, {
          id: 'offramp-purpose',
          part: 'field field-purpose',
          label: this.i18n.t('offramp.purpose.label'),
          placeholder: this.i18n.t('offramp.purpose.placeholder'),
          hint: this.i18n.t('offramp.purpose.hint'),
          error: this.error('purpose'),
          selected: this.#selected,
          onChange: this.#onChange,
          onBlur: this.#onBlur,
          unavailable: (p) => (p === 'PERSONAL_ACCOUNT' && selfOnly ? this.i18n.t('offramp.purpose.selfOnly.short') : undefined),
        })}
        ${view.expired
          ? nothing
          : html`<div class="actions">
              <button part="submit" class="primary" type="submit" data-testid="confirm-payout" aria-disabled=${busy || view.missing ? 'true' : 'false'}>
                ${busy ? this.i18n.t('offramp.confirming') : this.i18n.t('offramp.confirm')}
              </button>
            </div>`}
      </form>
    `;
  }
}
