// The status view: follows the review (the element polls), explains a temporary rejection and offers the re-upload, states a final one plainly.
import { html, nothing, type TemplateResult } from 'lit';
import type { Verification } from '../../contract/kyc';
import { formatInstant } from '../../i18n';
import { requirementOf } from '../document-uploader/requirements';
import { humanize, rejectionText, rejectLabelKey, requirementKey } from '../kyc-labels';
import type { StepContext } from './step-context';
import { supportReference } from '../support-reference';
import { supportLink } from './support-contact';

type StatusReason = NonNullable<Verification['statusReason']>;

const tone = { APPROVED: 'success', TEMPORARY_REJECTION: 'danger', FINAL_REJECTION: 'danger' } as const;

export class StatusStep {
  private reason: StatusReason | undefined;
  private reasonFor = '';
  private loadingReason = false;

  constructor(private readonly ctx: StepContext) {}

  private update(): void {
    this.ctx.host.requestUpdate();
  }

  /** The reasons of the newest verification, read once per rejection (the customer record does not carry them). */
  async loadReason(): Promise<void> {
    const customer = this.ctx.customer;
    if (!customer || customer.verification.status !== 'TEMPORARY_REJECTION' || this.loadingReason) return;
    const key = `${customer.id}|${customer.updatedAt}`;
    if (this.reasonFor === key) return;
    this.loadingReason = true;
    try {
      const { data } = await this.ctx.client().listVerifications();
      this.reason = data[0]?.statusReason;
      this.reasonFor = key;
    } catch (error) {
      this.ctx.report(error, 'listVerifications');
    } finally {
      this.loadingReason = false;
      this.update();
    }
  }

  render(): TemplateResult {
    const customer = this.ctx.customer!;
    const status = customer.verification.status;
    const following = status === 'NOT_STARTED' || status === 'UNDER_VERIFICATION';
    return html`
      <section class="kyc-step" data-step="status" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t('kyc.status.title')}</h3>
        <div
          part="verification-status"
          class="notice"
          data-tone=${tone[status as keyof typeof tone] ?? nothing}
          data-testid="verification-status"
          data-status=${status}
        >
          <p class="status-line">
            ${following ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
            <span part="status-badge" class="badge" data-status=${status}>${this.ctx.t(`status.${status}`)}</span>
          </p>
          <p data-testid="status-message">${this.ctx.t(`kyc.status.message.${status}`)}</p>
          ${following ? html`<p class="hint">${this.ctx.t('kyc.status.live')}</p>` : nothing}
        </div>
        ${status === 'TEMPORARY_REJECTION' ? this.renderRejection() : nothing} ${status === 'FINAL_REJECTION' ? this.renderNextSteps() : nothing}
        <dl part="summary" class="summary">
          <dt>${this.ctx.t('kyc.status.updatedAt')}</dt>
          <dd>${formatInstant(customer.updatedAt, this.ctx.locale)}</dd>
        </dl>
        ${supportReference(this.ctx.t('done.reference'), customer.id, 'status-customer-id')}
      </section>
    `;
  }

  /** After a final rejection: who can say more (the partner's support, with the reference shown below). */
  private renderNextSteps(): TemplateResult {
    const link = supportLink(this.ctx.supportContact);
    return html`<div part="next-steps" data-testid="next-steps">
      <p>${this.ctx.t(link ? 'kyc.final.next' : 'kyc.final.nextNoContact')}</p>
      ${link
        ? html`<p><a part="support-link" data-testid="support-link" href=${link.href} target="_blank" rel="noopener noreferrer">${link.text}</a></p>`
        : nothing}
    </div>`;
  }

  private renderRejection(): TemplateResult {
    const reason = this.reason;
    const docs = reason?.documents ?? [];
    // Without reasons (not loaded yet, or none given), the uploader still shows which documents were rejected and why.
    const types = [...new Set(docs.map((d) => requirementOf(d.type)))];
    return html`
      <div part="rejection" class="rejection" data-testid="rejection">
        <div role="heading" aria-level="4" class="subheading">${this.ctx.t('kyc.rejection.title')}</div>
        ${reason?.rejectLabels.length
          ? html`<ul data-testid="reject-labels">
              ${reason.rejectLabels.map((label) => {
                const key = rejectLabelKey(label);
                return html`<li data-label=${label}>${this.ctx.t(key ?? 'kyc.rejectLabel.other')}</li>`;
              })}
            </ul>`
          : nothing}
        ${docs.length
          ? html`<ul data-testid="rejected-documents">
              ${docs.map((d) => {
                const key = requirementKey(d.type);
                return html`<li data-type=${d.type}><strong>${key ? this.ctx.t(key) : humanize(d.type)}</strong>: ${rejectionText(this.ctx, d.rejectLabels)}</li>`;
              })}
            </ul>`
          : nothing}
        <p>${this.ctx.t('kyc.rejection.reupload')}</p>
        <ramp-document-uploader
          part="uploader"
          data-testid="reupload"
          api-base=${this.ctx.apiBase}
          session=${this.ctx.session}
          lang=${this.ctx.locale}
          theme=${this.ctx.theme ?? nothing}
          types=${types.join(' ') || nothing}
          heading-level="5"
        ></ramp-document-uploader>
      </div>
    `;
  }
}
