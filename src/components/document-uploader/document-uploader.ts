// <ramp-document-uploader>: the documents a customer (or one associated party) must send, what was sent, and the uploads themselves.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import type { Document, DocumentType } from '../../contract/kyc';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient } from '../../client/bff-client';
import { RampDocumentUploadedEvent } from '../../events/document-uploaded';
import { RampErrorEvent } from '../../events/error';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { documentUploaderStyles } from './document-uploader.styles';
import { hintKeys, labelName, statusLabel, typeLabel, zoneKey } from './labels';
import { loadFailure, loadOwner, OPTIONAL, shownRequirements } from './owner';
import { isIdentityType, parseTypes, requirementOf, sidesFor, typesFor, type RequirementLike, type Side } from './requirements';
import { renderCountryChoice, renderDocuments, renderTypeChoice, renderUpload, renderZone } from './templates';
import { UploadQueue, type Upload } from './upload-queue';

/** An empty string removes the attribute instead of leaving `session=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

/**
 * Lists what still has to be sent (from the customer's `requirements`, or the party's when `associated-party-id` is
 * set) with each requirement's status and the documents already sent (their status and the reviewer's comment), and
 * uploads files by drag and drop, the file picker or the phone camera. Files are checked before sending, as the server
 * checks them (type by the first bytes: JPG, PNG or PDF; at most 50 MB). ID cards and driver's licences are sent front
 * and back, as two uploads, and identity documents with their issuing country (default: the customer's). A customer
 * (not a party) is also offered the optional documents the spec lists for its type. Uploads show real progress (XMLHttpRequest), can be cancelled, and are retried with the
 * same Idempotency-Key after a network or server failure.
 *
 * @summary Upload KYC/KYB documents with checks, progress, retry and per-file server errors.
 * @tag ramp-document-uploader
 *
 * @fires ramp-document-uploaded - {RampDocumentUploadedEvent} Once per stored file; `detail` is the document record.
 * @fires ramp-error - {RampErrorEvent} When the list cannot be loaded (expired session, network, server); `detail.operation` is `loadDocuments`.
 *
 * @csspart base - Wrapper of everything.
 * @csspart requirement - One requirement (`data-requirement`, `data-status`).
 * @csspart requirement-title - Its name.
 * @csspart status - A status badge (`data-status`).
 * @csspart hint - Help text.
 * @csspart type-choice - Identity document type radio group.
 * @csspart country - The issuing-country select of an identity document.
 * @csspart optional - The card of optional documents (its own drop area and list).
 * @csspart optional-type - The document-type select in it.
 * @csspart dropzone - A drop area (`data-type`, `data-side`).
 * @csspart choose - The "choose a file" button.
 * @csspart camera - The "take a photo" button.
 * @csspart upload - One file being sent or refused (`data-state`).
 * @csspart progress - Its progress bar.
 * @csspart upload-error - Why it failed.
 * @csspart cancel - Cancel button.
 * @csspart retry - Retry button.
 * @csspart remove - Remove button.
 * @csspart documents - The list of documents already sent.
 * @csspart document - One sent document (`data-status`).
 * @csspart comment - Why the reviewer refused a document, in the user's language (from its reject labels; the reviewer's own note is never shown).
 * @csspart alert - Loading failure.
 *
 * @cssprop --ramp-color-primary - Accent: buttons, progress, active drop area.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-surface-raised - Drop area background.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-text-muted - Hints.
 * @cssprop --ramp-color-border - Borders.
 * @cssprop --ramp-color-danger - Errors and rejected documents.
 * @cssprop --ramp-color-success - Sent marks, approved badges.
 * @cssprop --ramp-color-focus - Focus ring.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-document-uploader-background - Requirement card background.
 * @cssprop --ramp-document-uploader-border-color - Requirement card border.
 * @cssprop --ramp-document-uploader-padding - Requirement card padding.
 * @cssprop --ramp-document-uploader-dropzone-background - Drop area background.
 * @cssprop --ramp-document-uploader-dropzone-border-color - Drop area border.
 * @cssprop --ramp-document-uploader-dropzone-active-background - Drop area while a file is dragged over it.
 * @cssprop --ramp-document-uploader-button-background - Primary button background.
 * @cssprop --ramp-document-uploader-button-color - Primary button text.
 */
export class RampDocumentUploader extends RampElement {
  protected override messageBundles(): readonly Bundle[] {
    return ['core', 'kyc'];
  }

  static override styles = documentUploaderStyles;

  /** The BFF's URL (`/verify/api` on the hosted verification page). Default: `/bff` beside the script's folder. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** The widget-session token (or, on the hosted page, the verification-link token). */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** Which requirements to show, space- or comma-separated (`ID_CARD BANK_STATEMENT`); optional document types may be named too. Default: every document requirement. */
  @property({ converter: optionalAttribute }) types = '';

  /** Upload for this associated party of a business customer: shows and satisfies the party's own requirements. */
  @property({ attribute: 'associated-party-id', converter: optionalAttribute }) associatedPartyId = '';

  /** Level of the requirement headings (2–6), so they fit the page's outline. */
  @property({ attribute: 'heading-level', type: Number }) headingLevel = 3;

  @state() private loadState: 'idle' | 'loading' | 'ready' | 'failed' = 'idle';
  @state() private requirements: RequirementLike[] = [];
  @state() private documents: Document[] = [];
  @state() private identityType: Partial<Record<string, DocumentType>> = {};
  /** The issuing country chosen per identity requirement; default the customer's (or the party's) country. */
  @state() private documentCountry: Partial<Record<string, string>> = {};
  /** Optional document types that apply to this customer (none for a party, none when `types` narrows the list). */
  @state() private optionalTypes: readonly DocumentType[] = [];
  @state() private optionalType: DocumentType | undefined;
  /** Whose country an identity document most likely comes from: the customer's (the issuer of their tax id) or the party's. */
  private ownCountry = 'BRA';
  @state() private dragOver = '';
  @state() private announcement = '';

  private readonly i18n = new I18nController(this);
  private loadAbort: AbortController | undefined;
  private readonly queue = new UploadQueue(this, {
    target: () => ({ apiBase: this.apiBase, session: this.session, associatedPartyId: this.associatedPartyId }),
    onSending: (upload) => this.announce(this.t('uploader.uploading', { file: upload.file.name })),
    onStored: (document, upload) => {
      this.stored(document, upload.requirement);
      this.announce(this.t('uploader.uploaded', { file: upload.file.name }));
    },
    onDropped: (upload, cancelled) => {
      if (cancelled) this.announce(this.t('uploader.cancelled', { file: upload.file.name }));
      void this.focusZone(upload);
    },
  });

  /** The documents listed (newest first), for this customer or party. */
  get sentDocuments(): readonly Document[] {
    return this.documents;
  }

  /**
   * Whether an upload is in flight; `settled()` resolves once none is, those started meanwhile included (each ends
   * stored, refused or failed). A "continue" waits for it, so it never judges the documents on a half-sent set.
   */
  get busy(): boolean {
    return this.queue.busy;
  }

  /** See `busy`. */
  async settled(): Promise<void> {
    await this.queue.settled();
  }

  /** Reloads requirements and sent documents, e.g. after the review moved on. */
  async refresh(): Promise<void> {
    await this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.loadAbort?.abort(); // the queue aborts the uploads
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('apiBase') || changed.has('session') || changed.has('associatedPartyId')) && this.session) void this.load();
  }

  private async load(): Promise<void> {
    this.loadAbort?.abort();
    const abort = (this.loadAbort = new AbortController());
    const signal = abort.signal;
    if (this.loadState !== 'ready') this.loadState = 'loading';
    try {
      const client = createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
      const owner = await loadOwner(client, this.associatedPartyId || null, signal);
      if (signal.aborted) return;
      this.requirements = owner.requirements;
      this.ownCountry = owner.country || 'BRA';
      this.optionalTypes = owner.optional;
      this.documents = owner.documents;
      this.loadState = 'ready';
    } catch (error) {
      if (signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) return;
      this.loadState = 'failed';
      this.dispatchEvent(new RampErrorEvent(loadFailure(error)));
    }
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  // ── rendering ──

  protected override render(): TemplateResult {
    return html`
      <div part="base" class="base" lang=${this.i18n.locale}>
        ${this.renderBody()}
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </div>
    `;
  }

  private renderBody(): TemplateResult | typeof nothing {
    if (this.loadState === 'failed') {
      return html`
        <div part="alert" class="alert" role="alert" data-testid="load-failed">
          <p>${this.t('uploader.loadFailed')}</p>
          <button type="button" class="small" @click=${() => void this.load()}>${this.t('uploader.retryLoad')}</button>
        </div>
      `;
    }
    if (this.loadState !== 'ready') {
      return html`<p class="muted" data-testid="loading"><span class="spinner" aria-hidden="true"></span> ${this.t('uploader.loading')}</p>`;
    }
    const shown = shownRequirements(this.types, this.requirements, this.documents);
    // A partner that names the types it wants (`types`) gets those alone; otherwise the optional documents follow.
    const optional = parseTypes(this.types) ? [] : this.optionalTypes;
    if (shown.length === 0 && optional.length === 0) return html`<p class="muted" data-testid="nothing-needed">${this.t('uploader.empty')}</p>`;
    return html`${repeat(shown, (r) => r.name, (r) => this.renderRequirement(r))}${optional.length ? this.renderOptional(optional) : nothing}`;
  }

  private heading(id: string, text: string): TemplateResult {
    const level = Math.min(6, Math.max(2, Math.round(this.headingLevel) || 3));
    return html`<div role="heading" aria-level=${level} id=${id} part="requirement-title" class="requirement-title">${text}</div>`;
  }

  private renderRequirement(requirement: RequirementLike): TemplateResult {
    const name = requirement.name;
    const types = typesFor(requirement);
    const type = this.chosenType(requirement);
    const sides = sidesFor(type);
    // A file a zone already marks as sent is not listed again below it: one status per file.
    const marked = new Set((sides.length ? sides : [undefined]).map((side) => this.zoneDocument(type, side)?.id));
    const docs = this.documents.filter((d) => requirementOf(d.type) === name && !marked.has(d.id));
    const hint = hintKeys[labelName(requirement)];
    // A named group, not a region landmark: a business's page holds one uploader per owner, each with the same requirements,
    // and a dozen landmarks named alike ("Incorporation articles" twice) help nobody find their way (axe landmark-unique).
    return html`
      <div
        role="group"
        part="requirement"
        class="requirement"
        data-requirement=${name}
        data-status=${requirement.status}
        data-testid="requirement-${name}"
        aria-labelledby="req-${name}-title"
      >
        <div class="requirement-header">
          ${this.heading(`req-${name}-title`, typeLabel(this.i18n, labelName(requirement)))}
          <span part="status" class="badge" data-status=${requirement.status} data-testid="status-${name}">
            <span class="visually-hidden">${this.t('uploader.statusLabel')}:</span> ${statusLabel(this.i18n, requirement.status)}
          </span>
        </div>
        <p part="hint" class="hint">${hint ? html`${this.t(hint)} ` : nothing}${this.t('uploader.formats')}</p>
        ${types.length > 1
          ? renderTypeChoice(this.i18n, name, types, type, (chosen) => (this.identityType = { ...this.identityType, [name]: chosen }))
          : nothing}
        ${isIdentityType(type)
          ? renderCountryChoice(this.i18n, name, this.countryFor(name), [...new Set([this.ownCountry, 'BRA'])], (country) => {
              this.documentCountry = { ...this.documentCountry, [name]: country };
            })
          : nothing}
        <div class="zones">
          ${sides.length ? sides.map((side) => this.renderZone(name, type, side)) : this.renderZone(name, type, undefined)}
        </div>
        ${this.renderUploads(name)} ${docs.length ? renderDocuments(this.i18n, name, docs) : nothing}
      </div>
    `;
  }

  private chosenType(requirement: RequirementLike): DocumentType {
    const types = typesFor(requirement);
    const chosen = this.identityType[requirement.name];
    if (chosen && types.includes(chosen)) return chosen;
    // The type already sent (newest first) is the likeliest one to complete, e.g. the back of an ID card.
    const sent = this.documents.find((d) => types.includes(d.type));
    return sent?.type ?? types[0]!;
  }

  private countryFor(requirement: string): string {
    return this.documentCountry[requirement] ?? this.ownCountry;
  }

  /** Documents the spec lists as optional for this customer: one type at a time through a single drop area. */
  private renderOptional(types: readonly DocumentType[]): TemplateResult {
    const type = this.optionalType && types.includes(this.optionalType) ? this.optionalType : types[0]!;
    const docs = this.documents.filter((d) => types.includes(d.type));
    const hint = hintKeys[type];
    return html`
      <section part="optional" class="requirement optional" data-testid="optional-documents" aria-labelledby="optional-title">
        <div class="requirement-header">${this.heading('optional-title', this.t('uploader.optional.title'))}</div>
        <p part="hint" class="hint">${this.t('uploader.optional.hint')} ${this.t('uploader.formats')}</p>
        <div class="field">
          <label for="optional-type">${this.t('uploader.typeLegend')}</label>
          <select
            id="optional-type"
            part="optional-type"
            data-testid="optional-type"
            aria-describedby=${hint ? 'optional-type-hint' : nothing}
            @change=${(e: Event) => (this.optionalType = (e.target as HTMLSelectElement).value as DocumentType)}
          >
            ${types.map((t) => html`<option value=${t} ?selected=${t === type}>${typeLabel(this.i18n, t)}</option>`)}
          </select>
          ${hint ? html`<p id="optional-type-hint" class="hint">${this.t(hint)}</p>` : nothing}
        </div>
        <div class="zones">${this.renderZone(OPTIONAL, type, undefined)}</div>
        ${this.renderUploads(OPTIONAL)} ${docs.length ? renderDocuments(this.i18n, OPTIONAL, docs) : nothing}
      </section>
    `;
  }

  /** The newest file of this type and side still standing (not rejected): the one its zone marks as sent. */
  private zoneDocument(type: DocumentType, side: Side | undefined): Document | undefined {
    return this.documents.find((d) => d.type === type && (d.side ?? undefined) === side && d.status !== 'REJECTED');
  }

  private renderZone(requirement: string, type: DocumentType, side: Side | undefined): TemplateResult {
    const key = zoneKey(type, side);
    return renderZone(
      this.i18n,
      { requirement, type, side, sent: this.zoneDocument(type, side), over: this.dragOver === key },
      {
        dragOver: (event, over) => this.onDragOver(event, over),
        dragLeave: () => (this.dragOver = ''),
        drop: (event) => this.onDrop(event, requirement, type, side),
        picked: (event) => this.onPicked(event, requirement, type, side),
        pick: (capture) => this.renderRoot.querySelector<HTMLInputElement>(`#${capture ? 'camera' : 'file'}-${key}`)?.click(),
      },
    );
  }

  private renderUploads(requirement: string): TemplateResult | typeof nothing {
    const uploads = this.queue.uploads.filter((u) => u.requirement === requirement);
    if (!uploads.length) return nothing;
    const on = { cancel: (id: number) => this.queue.cancel(id), retry: (id: number) => void this.queue.send(id), remove: (id: number) => this.queue.remove(id) };
    return html`<ul class="uploads" aria-label=${this.t('uploader.uploadsLabel')}>${repeat(uploads, (u) => u.id, (u) => renderUpload(this.i18n, u, on))}</ul>`;
  }

  // ── input ──

  private onDragOver(event: DragEvent, key: string): void {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = 'copy';
    this.dragOver = key;
  }

  private onDrop(event: DragEvent, requirement: string, type: DocumentType, side: Side | undefined): void {
    event.preventDefault();
    this.dragOver = '';
    this.accept([...(event.dataTransfer?.files ?? [])], requirement, type, side);
  }

  private onPicked(event: Event, requirement: string, type: DocumentType, side: Side | undefined): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = ''; // the same file picked again (after a removal) must fire `change` again
    this.accept(files, requirement, type, side);
  }

  private accept(files: File[], requirement: string, type: DocumentType, side: Side | undefined): void {
    this.queue.accept(files, requirement, type, side, isIdentityType(type) ? this.countryFor(requirement) : undefined);
  }

  private stored(document: Document, requirement: string): void {
    this.documents = [document, ...this.documents.filter((d) => d.id !== document.id)];
    // Sent now, whatever it was; the next refresh brings the server's word (a review may move it on).
    const exists = this.requirements.some((r) => r.name === requirement);
    this.requirements = exists
      ? this.requirements.map((r) => (r.name === requirement ? { ...r, status: 'SENT' } : r))
      : this.requirements;
    this.dispatchEvent(new RampDocumentUploadedEvent(document));
  }

  /** The button that was just removed had focus: give it to the zone's picker, not to the page. */
  private async focusZone(upload: Upload): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-testid="choose-${zoneKey(upload.type, upload.side)}"]`)?.focus();
  }

  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-document-uploader': RampDocumentUploader;
  }
}
