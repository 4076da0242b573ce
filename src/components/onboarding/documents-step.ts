// The documents step: <ramp-document-uploader> for the customer and, for a business, one per associated party; moves on once nothing is missing.
import { html, nothing, type TemplateResult } from 'lit';
import type { RampDocumentUploader } from '../document-uploader/document-uploader';
import { humanize, requirementKey } from '../kyc-labels';
import { partyName, partyTree, type PartyNode } from './parties';
import { missingDocuments } from './resume';
import { backButton } from './back-button';
import { alertFor, renderRequestAlert, type RequestAlert, type StepContext } from './step-context';

export class DocumentsStep {
  private missing: { partyId?: string; name: string }[] = [];
  private checking = false;
  /** Continue was pressed while an upload was still on its way. */
  private waiting = false;
  private alert: RequestAlert | undefined;

  constructor(private readonly ctx: StepContext) {}

  private update(): void {
    this.ctx.host.requestUpdate();
  }

  private uploader(partyId?: string): TemplateResult {
    return html`<ramp-document-uploader
      part="uploader"
      exportparts="requirement, dropzone, upload, progress, documents, document"
      data-testid=${partyId ? `uploader-${partyId}` : 'uploader'}
      api-base=${this.ctx.apiBase}
      session=${this.ctx.session}
      lang=${this.ctx.locale}
      theme=${this.ctx.theme ?? nothing}
      associated-party-id=${partyId ?? nothing}
      heading-level=${this.ctx.customer?.type === 'BUSINESS' ? 5 : 4}
    ></ramp-document-uploader>`;
  }

  render(): TemplateResult {
    const customer = this.ctx.customer!;
    const business = customer.type === 'BUSINESS';
    const flat = (nodes: PartyNode[]): PartyNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    return html`
      <section class="kyc-step" data-step="documents" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t('kyc.documents.title')}</h3>
        <p part="intro" class="intro">${this.ctx.t(business ? 'kyc.documents.intro.BUSINESS' : 'kyc.documents.intro.INDIVIDUAL')}</p>
        ${business
          ? html`
              <div class="party-documents">
                <div role="heading" aria-level="4" class="subheading">${this.ctx.t('kyc.documents.of', { name: customer.legalName ?? '' })}</div>
                ${this.uploader()}
              </div>
              ${flat(partyTree(this.ctx.parties)).map(
                ({ party }) => html`
                  <div class="party-documents" data-testid="party-documents-${party.id}">
                    <div role="heading" aria-level="4" class="subheading">${this.ctx.t('kyc.documents.of', { name: partyName(party) })}</div>
                    ${this.uploader(party.id)}
                  </div>
                `,
              )}
            `
          : this.uploader()}
        ${renderRequestAlert(this.ctx, this.alert, () => void this.continue())}
        ${this.missing.length
          ? html`<div part="alert" class="alert" role="alert" data-testid="documents-missing">
              <p>${this.ctx.t('kyc.documents.missing')}</p>
              <ul>
                ${this.missing.map((m) => html`<li>${this.missingText(m)}</li>`)}
              </ul>
            </div>`
          : nothing}
        <div part="actions" class="actions">
          ${backButton(this.ctx, 'documents')}
          <button part="submit" class="primary" type="button" data-testid="documents-continue" aria-disabled=${this.checking ? 'true' : 'false'} @click=${() => void this.continue()}>
            ${this.waiting ? this.ctx.t('kyc.documents.waiting') : this.ctx.t('kyc.continue')}
          </button>
        </div>
      </section>
    `;
  }

  private missingText(m: { partyId?: string; name: string }): string {
    // ID_CARD names the identity requirement (any identity document satisfies it).
    const name = m.name === 'ID_CARD' ? 'IDENTITY_DOCUMENT' : m.name;
    const key = requirementKey(name);
    const what = key ? this.ctx.t(key) : humanize(name);
    if (!m.partyId) return what;
    const party = this.ctx.parties.find((p) => p.id === m.partyId);
    return this.ctx.t('kyc.missing.party', { party: party ? partyName(party) : m.partyId, item: what });
  }

  /** Re-reads the customer (and parties) so the check is the server's word, not what this page remembers. */
  async continue(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    this.alert = undefined;
    this.update();
    try {
      // An upload still on its way would be counted missing (and the list then vanish when it lands): wait for it.
      const uploaders = [...this.ctx.renderRoot.querySelectorAll<Element & Partial<Pick<RampDocumentUploader, 'busy' | 'settled'>>>('ramp-document-uploader')];
      if (uploaders.some((u) => u.busy)) {
        this.waiting = true;
        this.ctx.announce(this.ctx.t('kyc.documents.waiting'));
        this.update();
        await Promise.all(uploaders.map((u) => u.settled?.()));
        this.waiting = false;
      }
      const client = this.ctx.client();
      const business = this.ctx.customer?.type === 'BUSINESS';
      const [customer, parties] = await Promise.all([client.getCustomer(), business ? client.listAssociatedParties().then((p) => p.data) : Promise.resolve([])]);
      this.ctx.setCustomer(customer);
      if (business) this.ctx.setParties(parties);
      this.missing = missingDocuments(customer, parties);
      this.checking = false;
      if (this.missing.length === 0) {
        await this.ctx.goTo(business ? 'submit' : 'liveness');
        return;
      }
      this.ctx.announce(this.ctx.t('kyc.documents.missing'));
      this.update();
    } catch (error) {
      this.checking = false;
      this.waiting = false;
      this.alert = alertFor(error);
      this.ctx.report(error, 'getCustomer');
      this.update();
    }
  }

  /** After an upload, a list of what is missing may be out of date: drop what was just sent. */
  uploaded(): void {
    if (this.missing.length) {
      this.missing = [];
      this.update();
    }
  }
}
