// The liveness step of an individual: opens the hosted verification page (top-level popup, never an iframe) and waits for the selfie.
import { html, nothing, type TemplateResult } from 'lit';
import type { StepContext } from './step-context';
import { backButton } from './back-button';

export class LivenessStep {
  /** The page was opened (or offered as a link): the element follows the customer until liveness is done. */
  waiting = false;
  private blocked = false;

  constructor(private readonly ctx: StepContext) {}

  render(): TemplateResult {
    const link = withLang(this.ctx.customer?.verification.link ?? '', this.ctx.locale);
    return html`
      <section class="kyc-step" data-step="liveness" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t('liveness.title')}</h3>
        <p part="intro" class="intro">${this.ctx.t('liveness.intro')}</p>
        ${this.blocked
          ? html`<div part="alert" class="alert" role="alert" data-testid="liveness-blocked">
              <p>${this.ctx.t('liveness.blocked')}</p>
            </div>`
          : nothing}
        ${this.waiting
          ? html`<div class="notice" data-testid="liveness-waiting">
              <p><span class="spinner" aria-hidden="true"></span> ${this.ctx.t('liveness.waiting')}</p>
              <p class="hint">
                ${this.ctx.t('liveness.linkIntro')}
                <a part="liveness-link" data-testid="liveness-link" href=${link} target="_blank" rel="noopener">${this.ctx.t('liveness.link')}</a>
              </p>
            </div>`
          : nothing}
        <div part="actions" class="actions">
          ${backButton(this.ctx, 'liveness')}
          <button part="submit" class=${this.waiting ? '' : 'primary'} type="button" data-testid="start-liveness" @click=${() => this.open()}>
            ${this.waiting ? this.ctx.t('liveness.reopen') : this.ctx.t('liveness.start')}
          </button>
        </div>
      </section>
    `;
  }

  /**
   * A popup keeps this page (and the partner's) where it is; the link is the fallback when popups are blocked. Camera
   * permission is the hosted page's own (first-party origin), which an iframe would not get reliably, so: never an iframe.
   */
  open(): void {
    const link = withLang(this.ctx.customer?.verification.link ?? '', this.ctx.locale);
    if (!link) return;
    const popup = window.open(link, 'ramp-liveness', 'popup=yes,width=480,height=760');
    if (popup) {
      // The hosted page needs no handle on the partner's page: cut it while the popup is still about:blank.
      try {
        popup.opener = null;
      } catch {
        // already navigated cross-origin: nothing to cut
      }
    }
    this.blocked = !popup;
    this.waiting = true;
    this.ctx.announce(this.blocked ? this.ctx.t('liveness.blocked') : this.ctx.t('liveness.waiting'));
    this.ctx.host.requestUpdate();
  }
}

/** The hosted page speaks the widget's language (`?lang=`), not only the browser's. */
function withLang(link: string, locale: string): string {
  if (!link) return link;
  const url = new URL(link);
  url.searchParams.set('lang', locale);
  return url.href;
}
