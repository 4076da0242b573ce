// The purpose field of <ramp-pix-checkout>: the chosen purpose, when its error shows, the server's word on it; it re-renders its host on change.
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import { ProblemError } from '../../client/bff-client';
import type { I18nController } from '../../i18n';
import type { FieldProblemKey } from '../../i18n/problem-words';
import { placeFieldProblems } from '../transaction/problems';
import { purposeSelect } from '../transaction/purpose-select';
import { isPurpose, type Purpose } from '../transaction/purposes';

type Host = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/** The error shows once the user left the field or tried to submit (lion's "touched"), or when the server refused the value. */
export class PurposeField {
  #selected = '';
  #touched = false;
  #submitted = false;
  #serverError: FieldProblemKey | '' = '';

  constructor(
    private readonly host: Host,
    private readonly i18n: I18nController,
    /** Whether the form is on screen: a select removed while focused blurs during that render, and the user did not leave it. */
    private readonly shown: () => boolean,
  ) {}

  /** The chosen purpose, when it is one of the API's. */
  get value(): Purpose | undefined {
    return isPurpose(this.#selected) ? this.#selected : undefined;
  }

  /** A partner's preselection (during the host's update, so no new one is asked for). */
  preset(purpose: Purpose): void {
    this.#selected = purpose;
  }

  /** The user tried to submit: an empty field now says so. */
  markSubmitted(): void {
    this.#submitted = true;
    this.host.requestUpdate();
  }

  /** A 400's field problems: the purpose's shows here until the user changes it; `true` when it was the only one. */
  placed(error: unknown): boolean {
    if (!(error instanceof ProblemError) || error.status !== 400) return false;
    const { fields, unplaced } = placeFieldProblems(error.errors, (segments) => (segments[0] === 'purpose' ? 'purpose' : undefined));
    if (!fields.purpose) return false;
    this.#serverError = fields.purpose;
    this.host.requestUpdate();
    return unplaced.length === 0;
  }

  /** A new checkout: the choice stays, the errors go. */
  reset(): void {
    this.#submitted = false;
    this.#touched = false;
    this.#serverError = '';
    this.host.requestUpdate();
  }

  focus(): void {
    this.host.renderRoot.querySelector<HTMLElement>('#purpose')?.focus();
  }

  #error(): string | undefined {
    if (this.#serverError) return this.i18n.t(this.#serverError);
    if (!this.#selected && (this.#submitted || this.#touched)) return this.i18n.t('checkout.purpose.required');
    return undefined;
  }

  #onChange = (event: Event): void => {
    this.#selected = (event.target as HTMLSelectElement).value;
    this.#serverError = '';
    this.host.requestUpdate();
  };

  #onBlur = (): void => {
    if (!this.shown()) return;
    this.#touched = true;
    this.host.requestUpdate();
  };

  render(): TemplateResult {
    return purposeSelect(this.i18n, {
      id: 'purpose',
      part: 'field',
      label: this.i18n.t('checkout.purpose.label'),
      placeholder: this.i18n.t('checkout.purpose.placeholder'),
      error: this.#error(),
      selected: this.#selected,
      onChange: this.#onChange,
      onBlur: this.#onBlur,
    });
  }
}
