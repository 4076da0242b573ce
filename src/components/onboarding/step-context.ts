// What a step of <ramp-onboarding> may use from the element: translations, the API, the customer, navigation, announcements.
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { Customer } from '../../contract/customers';
import type { AssociatedParty } from '../../contract/kyc';
import { NetworkError, ProblemError, type BffClient } from '../../client/bff-client';
import type { Locale, MessageKey, PluralKey, TranslateArgs } from '../../i18n';
import type { OnboardingStep } from './steps';

export interface StepContext {
  readonly host: ReactiveControllerHost & HTMLElement;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly locale: Locale;
  readonly apiBase: string;
  readonly session: string;
  readonly theme: 'light' | 'dark' | undefined;
  /** The partner's support contact, as given (see `supportLink`). */
  readonly supportContact: string;
  readonly customer: Customer | undefined;
  readonly parties: readonly AssociatedParty[];
  t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string;
  plural(base: PluralKey, count: number): string;
  client(): BffClient;
  /** A fresher customer from any answer: updates the view and fires `ramp-verification-changed` when the status moved. */
  setCustomer(customer: Customer): void;
  setParties(parties: readonly AssociatedParty[]): void;
  /** Moves to a step and puts focus on its heading (the user acted, so focus follows). */
  goTo(step: OnboardingStep): Promise<void>;
  announce(message: string): void;
  /** `ramp-error` for a failure the user cannot fix in a form. */
  report(error: unknown, operation: string): void;
  /** Focus a control in the shadow root once rendered. */
  focus(selector: string): Promise<void>;
}

/** A failed request, as a step shows it above its form. */
export type RequestAlert =
  | { kind: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NETWORK' | 'NOT_FOUND' }
  | { kind: 'INVALID_STATE' | 'VALIDATION_FAILED' }
  /** A party cannot be removed while parties are listed under it (the server refuses; we say why in our words). */
  | { kind: 'HAS_OWNERS'; name: string }
  | { kind: 'OTHER'; code: string };

/** Turns any failure into the alert to show; field-level problems are placed by the step before it gets here. */
export function alertFor(error: unknown): RequestAlert {
  if (error instanceof NetworkError) return { kind: 'NETWORK' };
  if (!(error instanceof ProblemError)) return { kind: 'OTHER', code: 'CLIENT_ERROR' };
  if (error.code === 'UNAUTHENTICATED' || error.status === 401) return { kind: 'UNAUTHENTICATED' };
  if (error.code === 'FORBIDDEN' || error.status === 403) return { kind: 'FORBIDDEN' };
  if (error.status === 404) return { kind: 'NOT_FOUND' };
  if (error.status === 409) return { kind: 'INVALID_STATE' };
  if (error.status === 400 || error.status === 422) {
    return { kind: 'VALIDATION_FAILED' };
  }
  return { kind: 'OTHER', code: error.code };
}

/** Whether trying again as it is may help (it cannot for a refused state or bad data). */
const retryable = (alert: RequestAlert) => alert.kind !== 'INVALID_STATE' && alert.kind !== 'VALIDATION_FAILED' && alert.kind !== 'HAS_OWNERS';

export function renderRequestAlert(ctx: StepContext, alert: RequestAlert | undefined, onRetry?: () => void): TemplateResult | typeof nothing {
  if (!alert) return nothing;
  let message: string;
  switch (alert.kind) {
    case 'UNAUTHENTICATED':
      message = ctx.t('alert.UNAUTHENTICATED');
      break;
    case 'NETWORK':
      message = ctx.t('alert.NETWORK');
      break;
    case 'FORBIDDEN':
      message = ctx.t('kyc.alert.FORBIDDEN');
      break;
    case 'NOT_FOUND':
      message = ctx.t('kyc.alert.NOT_FOUND');
      break;
    case 'INVALID_STATE':
      message = ctx.t('kyc.alert.INVALID_STATE');
      break;
    case 'HAS_OWNERS':
      message = ctx.t('parties.removeOwnersFirst', { name: alert.name });
      break;
    case 'VALIDATION_FAILED':
      message = ctx.t('alert.VALIDATION_FAILED');
      break;
    case 'OTHER':
      message = ctx.t('alert.OTHER', { code: alert.code });
      break;
  }
  return html`
    <div part="alert" class="alert" role="alert" data-testid="alert" data-kind=${alert.kind}>
      <p>${message}</p>
      ${onRetry && retryable(alert)
        ? html`<button part="retry" class="retry small" type="button" data-testid="retry" @click=${onRetry}>${ctx.t('alert.retry')}</button>`
        : nothing}
    </div>
  `;
}

export interface FieldShell {
  /** The control's id; hint and error ids derive from it. */
  id: string;
  field: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  optional?: boolean;
}

/** `aria-describedby` for a control: its hint and its error, when shown. */
export function describedBy(f: FieldShell): string | typeof nothing {
  return [f.hint ? `${f.id}-hint` : '', f.error ? `${f.id}-error` : ''].filter(Boolean).join(' ') || nothing;
}

/** Label, control, hint and error, wired together. */
export function fieldShell(ctx: StepContext, f: FieldShell, control: TemplateResult, extraClass = ''): TemplateResult {
  return html`
    <div part="field field-${f.field}" class="field ${extraClass}">
      <label part="label" for=${f.id}>
        ${f.label}${f.optional ? html` <span class="optional">(${ctx.t('field.optional')})</span>` : nothing}
      </label>
      ${control}
      ${f.hint ? html`<p id="${f.id}-hint" part="hint" class="hint">${f.hint}</p>` : nothing}
      ${f.error ? html`<p id="${f.id}-error" part="error" class="error" data-testid="${f.id}-error">${f.error}</p>` : nothing}
    </div>
  `;
}
