// The start-verification step of a business: one button; a 409 that lists what is missing becomes a readable list with a way back.
import { html, nothing, type TemplateResult } from 'lit';
import { ProblemError } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { humanize, requirementKey } from '../kyc-labels';
import { partyName } from './parties';
import { backButton } from './back-button';
import { alertFor, renderRequestAlert, type RequestAlert, type StepContext } from './step-context';
import type { OnboardingStep } from './steps';

/** Where the user fixes a missing item: `ADDITIONAL_INFORMATION` → info, `ASSOCIATED_PARTIES` → parties, a document → documents. */
export function stepForMissing(item: string): OnboardingStep {
  if (item === 'ADDITIONAL_INFORMATION') return 'info';
  if (item === 'ASSOCIATED_PARTIES') return 'parties';
  return 'documents';
}

const stepOrder: readonly OnboardingStep[] = ['info', 'parties', 'documents'];

export class SubmitStep {
  private busy = false;
  private missing: string[] = [];
  private alert: RequestAlert | undefined;
  private readonly keys = new IdempotencyKeys();

  constructor(private readonly ctx: StepContext) {}

  private update(): void {
    this.ctx.host.requestUpdate();
  }

  render(): TemplateResult {
    const fixAt = this.missing.map(stepForMissing).sort((a, b) => stepOrder.indexOf(a) - stepOrder.indexOf(b))[0];
    return html`
      <section class="kyc-step" data-step="submit" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t('kyc.submit.title')}</h3>
        <p part="intro" class="intro">${this.ctx.t('kyc.submit.intro')}</p>
        ${renderRequestAlert(this.ctx, this.alert, () => void this.start())}
        ${this.missing.length
          ? html`<div part="alert" class="alert" role="alert" data-testid="verification-missing">
              <p id="missing-title" tabindex="-1">${this.ctx.t('kyc.submit.missing')}</p>
              <ul data-testid="missing-list">
                ${this.missing.map((item) => html`<li data-item=${item}>${this.itemText(item)}</li>`)}
              </ul>
              ${fixAt
                ? html`<button type="button" class="small" data-testid="fix-missing" @click=${() => void this.ctx.goTo(fixAt)}>
                    ${this.ctx.t(`kyc.goTo.${fixAt as 'info' | 'parties' | 'documents'}`)}
                  </button>`
                : nothing}
            </div>`
          : nothing}
        <div part="actions" class="actions">
          ${backButton(this.ctx, 'submit')}
          <button part="submit" class="primary" type="button" data-testid="start-verification" aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => void this.start()}>
            ${this.busy ? this.ctx.t('kyc.submit.starting') : this.ctx.t('kyc.submit.start')}
          </button>
        </div>
      </section>
    `;
  }

  /** `associatedParties.<id>.ID_CARD` → "Ana Souza: Identity document" (ID_CARD names the identity requirement); a bare name → its label. */
  private itemText(item: string): string {
    const party = /^associatedParties\.([^.]+)\.(.+)$/.exec(item);
    const name = (party ? party[2]! : item).replace(/^ID_CARD$/, 'IDENTITY_DOCUMENT');
    const key = name === 'ASSOCIATED_PARTIES' ? 'kyc.missing.ASSOCIATED_PARTIES' : requirementKey(name);
    const what = key ? this.ctx.t(key) : humanize(name);
    if (!party) return what;
    const found = this.ctx.parties.find((p) => p.id === party[1]);
    return this.ctx.t('kyc.missing.party', { party: found ? partyName(found) : party[1]!, item: what });
  }

  async start(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.alert = undefined;
    this.missing = [];
    this.ctx.announce(this.ctx.t('kyc.submit.starting'));
    this.update();
    // No body: one key per visit of this step; a retry after a lost answer replays the verification already started.
    const idempotencyKey = this.keys.keyFor('start-verification');
    try {
      const verification = await this.ctx.client().startVerification({ idempotencyKey });
      this.busy = false;
      const customer = this.ctx.customer!;
      this.ctx.setCustomer({ ...customer, verification: { ...customer.verification, status: verification.status } });
      await this.ctx.goTo('status');
    } catch (error) {
      this.busy = false;
      // The server may keep a refusal under its key: once the user fixed things, the next attempt needs a new one.
      if (error instanceof ProblemError && error.status < 500) this.keys.reset();
      const missing = error instanceof ProblemError && error.status === 409 ? error.problem.missing : undefined;
      if (Array.isArray(missing) && missing.length) {
        this.missing = missing.filter((m): m is string => typeof m === 'string');
        this.ctx.announce(this.ctx.t('kyc.submit.missing'));
        this.update();
        await this.ctx.focus('#missing-title');
        return;
      }
      this.alert = alertFor(error);
      if (!(error instanceof ProblemError && error.status === 409)) this.ctx.report(error, 'startVerification');
      this.update();
    }
  }
}
