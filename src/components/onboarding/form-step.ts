// What the additional-information and parties forms do alike: when an error shows, what a submit checks first, and
// where a refused request's problems land (on their fields, or in the alert above the form).
import { ProblemError, type FieldProblem } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import type { FieldProblemKey } from '../../i18n/problem-words';
import { alertFor, type RequestAlert, type StepContext } from './step-context';

/** The problems of a 400 placed on the form's fields, and those no field names. */
export interface Placed<F extends string> {
  fields: Partial<Record<F, FieldProblemKey>>;
  unplaced: readonly unknown[];
}

export abstract class FormStep<F extends string, E extends string> {
  protected touched = new Set<F>();
  protected submitted = false;
  protected serverErrors: Partial<Record<F, FieldProblemKey>> = {};
  protected alert: RequestAlert | undefined;
  protected busy = false;
  protected readonly keys = new IdempotencyKeys();

  constructor(protected readonly ctx: StepContext) {}

  /** The client's rules on the current values. */
  protected abstract errors(): Partial<Record<F, E>>;
  /** The fields the form shows now, in page order. */
  protected abstract shownFields(): readonly F[];
  protected abstract errorText(field: F, error: E): string;
  protected abstract label(field: F): string;
  protected abstract focusField(field: F): Promise<void>;

  protected update(): void {
    this.ctx.host.requestUpdate();
  }

  /** A fresh form: no field touched, no error shown. */
  protected startOver(): void {
    this.touched = new Set();
    this.submitted = false;
    this.serverErrors = {};
  }

  /** Server errors show at once; the client's once the field was left or a submit was tried. */
  protected visibleError(field: F): string | undefined {
    const server = this.serverErrors[field];
    if (server) return this.ctx.t(server as FieldProblemKey);
    if (!this.submitted && !this.touched.has(field)) return undefined;
    const error = this.errors()[field];
    return error ? this.errorText(field, error) : undefined;
  }

  protected clearServerError(field: F): void {
    if (!this.serverErrors[field]) return;
    const { [field]: _gone, ...rest } = this.serverErrors;
    this.serverErrors = rest as Partial<Record<F, FieldProblemKey>>;
  }

  /** The user left a field: its error shows, and is said (focus is already on the next field, so it is not read otherwise). */
  protected touch(field: F): void {
    if (this.touched.has(field)) return;
    this.touched.add(field);
    const message = this.visibleError(field);
    if (message && !this.submitted) this.ctx.announce(this.ctx.t('form.fieldError', { field: this.label(field), message }));
    this.update();
  }

  protected invalidFields(): F[] {
    const errors = this.errors();
    return this.shownFields().filter((f) => errors[f] || this.serverErrors[f]);
  }

  /** A submit's first half: every error shows; the first wrong field (to focus), if any is left. */
  protected firstInvalid(): F | undefined {
    this.submitted = true;
    this.alert = undefined;
    const invalid = this.invalidFields();
    if (invalid.length === 0) return undefined;
    this.ctx.announce(this.ctx.plural('form.invalid', invalid.length));
    this.update();
    return invalid[0];
  }

  /** A refused request: a 400's problems land on their fields (the rest in the alert); a 409 is no error to report. */
  protected async failed(error: unknown, place: (errors: readonly FieldProblem[]) => Placed<F>, operation: string): Promise<void> {
    if (error instanceof ProblemError && error.status === 400) {
      const { fields, unplaced } = place(error.errors);
      this.serverErrors = { ...this.serverErrors, ...fields };
      if (unplaced.length > 0 || Object.keys(fields).length === 0) this.alert = alertFor(error);
      const invalid = this.invalidFields();
      this.ctx.announce(this.ctx.plural('form.invalid', Math.max(1, invalid.length)));
      this.update();
      if (invalid[0]) await this.focusField(invalid[0]);
      return;
    }
    this.alert = alertFor(error);
    if (!(error instanceof ProblemError && error.status === 409)) this.ctx.report(error, operation);
    this.update();
  }
}
