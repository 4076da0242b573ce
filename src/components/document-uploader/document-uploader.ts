// <ramp-document-uploader>: the documents a customer (or one associated party) must send, what was sent, and the uploads themselves.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import { repeat } from 'lit/directives/repeat.js';
import type { Document, DocumentType } from '../../contract/kyc';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient, NetworkError, ProblemError } from '../../client/bff-client';
import { newIdempotencyKey } from '../../client/idempotency';
import { joinUrl, uploadMultipart } from '../../client/upload';
import { RampDocumentUploadedEvent } from '../../events/document-uploaded';
import { RampErrorEvent } from '../../events/error';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { humanize, requirementKey, type PlainMessageKey } from '../kyc-labels';
import { documentUploaderStyles } from './document-uploader.styles';
import { checkFile, formatBytes, type FileRefusal } from './file-check';
import { countryOptions } from '../onboarding/countries';
import {
  isDocumentRequirement,
  isIdentityType,
  optionalTypesFor,
  parseTypes,
  requirementOf,
  sidesFor,
  typesFor,
  type RequirementLike,
  type Side,
} from './requirements';

/** An empty string removes the attribute instead of leaving `session=""` behind. */
const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type UploadState = 'checking' | 'uploading' | 'failed' | 'refused';

/** Why an upload is not going through; `retry` says whether the same request may succeed later. */
type UploadError =
  | { kind: FileRefusal }
  | { kind: 'network' | 'session'; retry: true }
  | { kind: 'server'; code: string; retry: true }
  | { kind: 'needsInfo' | 'locked' | 'invalid'; detail: string };

interface Upload {
  id: number;
  requirement: string;
  type: DocumentType;
  side: Side | undefined;
  /** The issuing country (alpha-3) of an identity document, as chosen when the file was picked; retries send the same. */
  country: string | undefined;
  file: File;
  state: UploadState;
  loaded: number;
  total: number;
  error?: UploadError;
  /** One per chosen file; every retry of this file sends it again, so the server keeps one document. */
  idempotencyKey: string;
  abort?: AbortController;
}

/** The label of a requirement: the identity group (several accepted types) reads "Identity document", others their type. */
const labelName = (requirement: RequirementLike): string => ((requirement.acceptedTypes?.length ?? 0) > 1 ? 'IDENTITY_DOCUMENT' : requirement.name);

const hintKeys: Partial<Record<string, PlainMessageKey>> = {
  IDENTITY_DOCUMENT: 'uploader.hint.IDENTITY_DOCUMENT',
  BANK_STATEMENT: 'uploader.hint.BANK_STATEMENT',
  INCORPORATION_ARTICLES: 'uploader.hint.INCORPORATION_ARTICLES',
  SHAREHOLDER_REGISTRY: 'uploader.hint.SHAREHOLDER_REGISTRY',
  DIRECTORS_REGISTRY: 'uploader.hint.DIRECTORS_REGISTRY',
  INCOME_TAX_RETURN: 'uploader.hint.INCOME_TAX_RETURN',
  DELIVERY_RECEIPT: 'uploader.hint.DELIVERY_RECEIPT',
};

/** The requirement name the optional documents' uploads are filed under (no requirement of the API has it). */
const OPTIONAL = 'OPTIONAL';

let nextUploadId = 1;

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
 * @csspart comment - The reviewer's comment on a document.
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
  @state() private uploads: Upload[] = [];
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
  /** Uploads between the pick and the server's answer (the file check included). */
  private readonly sending = new Set<Promise<void>>();

  /** The documents listed (newest first), for this customer or party. */
  get sentDocuments(): readonly Document[] {
    return this.documents;
  }

  /**
   * Whether an upload is in flight; `settled()` resolves once none is, those started meanwhile included (each ends
   * stored, refused or failed). A "continue" waits for it, so it never judges the documents on a half-sent set.
   */
  get busy(): boolean {
    return this.sending.size > 0;
  }

  /** See `busy`. */
  async settled(): Promise<void> {
    while (this.sending.size) await Promise.allSettled([...this.sending]);
  }

  /** Reloads requirements and sent documents, e.g. after the review moved on. */
  async refresh(): Promise<void> {
    await this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.loadAbort?.abort();
    for (const upload of this.uploads) upload.abort?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('apiBase') || changed.has('session') || changed.has('associatedPartyId')) && this.session) void this.load();
  }

  private client() {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private async load(): Promise<void> {
    this.loadAbort?.abort();
    const abort = (this.loadAbort = new AbortController());
    const signal = abort.signal;
    if (this.loadState !== 'ready') this.loadState = 'loading';
    const client = this.client();
    const partyId = this.associatedPartyId || null;
    try {
      const [owner, documents] = await Promise.all([
        partyId
          ? client.listAssociatedParties({ signal }).then((page) => {
              const party = page.data.find((p) => p.id === partyId);
              return { requirements: party?.requirements ?? [], country: party?.address.country, optional: [] as DocumentType[] };
            })
          : client.getCustomer({ signal }).then((c) => ({ requirements: c.requirements, country: c.country, optional: optionalTypesFor(c) })),
        client.listDocuments({ signal }).then((page) => page.data.filter((d) => (d.associatedPartyId ?? null) === partyId)),
      ]);
      if (signal.aborted) return;
      this.requirements = owner.requirements;
      this.ownCountry = owner.country || 'BRA';
      this.optionalTypes = owner.optional;
      this.documents = documents;
      this.loadState = 'ready';
    } catch (error) {
      if (signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) return;
      this.loadState = 'failed';
      this.dispatchEvent(
        new RampErrorEvent({
          code: error instanceof ProblemError ? error.code : error instanceof NetworkError ? 'NETWORK_ERROR' : 'CLIENT_ERROR',
          status: error instanceof ProblemError ? error.status : null,
          detail: error instanceof Error ? error.message : String(error),
          ...(error instanceof ProblemError && error.requestId ? { requestId: error.requestId } : {}),
          operation: 'loadDocuments',
        }),
      );
    }
  }

  /** The requirements shown: the document ones, or those named in `types` (named but not required: shown as not sent). */
  private shownRequirements(): RequirementLike[] {
    const wanted = parseTypes(this.types)?.map(requirementOf);
    if (!wanted) return this.requirements.filter((r) => isDocumentRequirement(r.name));
    return [...new Set(wanted)]
      .filter(isDocumentRequirement)
      .map((name) => this.requirements.find((r) => r.name === name) ?? { name, status: this.derivedStatus(name) });
  }

  private derivedStatus(name: string): string {
    const docs = this.documents.filter((d) => requirementOf(d.type) === name);
    if (docs.length === 0) return 'NOT_SENT';
    return docs[0]!.status;
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
    const shown = this.shownRequirements();
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
    const uploads = this.uploads.filter((u) => u.requirement === name);
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
          ${this.heading(`req-${name}-title`, this.typeLabel(labelName(requirement)))}
          <span part="status" class="badge" data-status=${requirement.status} data-testid="status-${name}">
            <span class="visually-hidden">${this.t('uploader.statusLabel')}:</span> ${this.statusLabel(requirement.status)}
          </span>
        </div>
        <p part="hint" class="hint">${hint ? html`${this.t(hint)} ` : nothing}${this.t('uploader.formats')}</p>
        ${types.length > 1 ? this.renderTypeChoice(requirement, types, type) : nothing}
        ${isIdentityType(type) ? this.renderCountryChoice(name) : nothing}
        <div class="zones">
          ${sides.length ? sides.map((side) => this.renderZone(name, type, side)) : this.renderZone(name, type, undefined)}
        </div>
        ${uploads.length
          ? html`<ul class="uploads" aria-label=${this.t('uploader.uploadsLabel')}>${repeat(uploads, (u) => u.id, (u) => this.renderUpload(u))}</ul>`
          : nothing}
        ${docs.length ? this.renderDocuments(name, docs) : nothing}
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

  private renderTypeChoice(requirement: RequirementLike, types: readonly DocumentType[], chosen: DocumentType): TemplateResult {
    const name = requirement.name;
    return html`
      <fieldset part="type-choice" class="type-choice">
        <legend>${this.t('uploader.typeLegend')}</legend>
        <div class="choices">
          ${types.map(
            (type) => html`
              <label class="choice">
                <input
                  type="radio"
                  name="type-${name}"
                  value=${type}
                  data-testid="type-${type}"
                  .checked=${type === chosen}
                  @change=${() => (this.identityType = { ...this.identityType, [name]: type })}
                />
                <span>${this.typeLabel(type)}</span>
              </label>
            `,
          )}
        </div>
      </fieldset>
    `;
  }

  /** The issuing country of an identity document: the spec's `country` upload field, needed to read the document. */
  private renderCountryChoice(requirement: string): TemplateResult {
    const id = `country-${requirement}`;
    const chosen = this.countryFor(requirement);
    return html`
      <div class="field country-choice">
        <label for=${id}>${this.t('uploader.country')}</label>
        <select
          id=${id}
          part="country"
          data-testid=${id}
          autocomplete="country"
          @change=${(e: Event) => (this.documentCountry = { ...this.documentCountry, [requirement]: (e.target as HTMLSelectElement).value })}
        >
          ${countryOptions(this.i18n.locale, [...new Set([this.ownCountry, 'BRA'])]).map(
            (c) => html`<option value=${c.code} ?selected=${c.code === chosen}>${c.name}</option>`,
          )}
        </select>
      </div>
    `;
  }

  private countryFor(requirement: string): string {
    return this.documentCountry[requirement] ?? this.ownCountry;
  }

  /** Documents the spec lists as optional for this customer: one type at a time through a single drop area. */
  private renderOptional(types: readonly DocumentType[]): TemplateResult {
    const type = this.optionalType && types.includes(this.optionalType) ? this.optionalType : types[0]!;
    const docs = this.documents.filter((d) => types.includes(d.type));
    const uploads = this.uploads.filter((u) => u.requirement === OPTIONAL);
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
            ${types.map((t) => html`<option value=${t} ?selected=${t === type}>${this.typeLabel(t)}</option>`)}
          </select>
          ${hint ? html`<p id="optional-type-hint" class="hint">${this.t(hint)}</p>` : nothing}
        </div>
        <div class="zones">${this.renderZone(OPTIONAL, type, undefined)}</div>
        ${uploads.length
          ? html`<ul class="uploads" aria-label=${this.t('uploader.uploadsLabel')}>${repeat(uploads, (u) => u.id, (u) => this.renderUpload(u))}</ul>`
          : nothing}
        ${docs.length ? this.renderDocuments(OPTIONAL, docs) : nothing}
      </section>
    `;
  }

  private zoneKey(type: string, side: Side | undefined): string {
    return side ? `${type}-${side}` : type;
  }

  private zoneLabel(type: string, side: Side | undefined): string {
    const typeLabel = this.typeLabel(type);
    return side ? this.t('uploader.zone.side', { type: typeLabel, side: this.t(`uploader.side.${side}`) }) : typeLabel;
  }

  /** The newest file of this type and side still standing (not rejected): the one its zone marks as sent. */
  private zoneDocument(type: DocumentType, side: Side | undefined): Document | undefined {
    return this.documents.find((d) => d.type === type && (d.side ?? undefined) === side && d.status !== 'REJECTED');
  }

  private renderZone(requirement: string, type: DocumentType, side: Side | undefined): TemplateResult {
    const key = this.zoneKey(type, side);
    const label = this.zoneLabel(type, side);
    const sent = this.zoneDocument(type, side);
    const pick = (capture: boolean) => this.renderRoot.querySelector<HTMLInputElement>(`#${capture ? 'camera' : 'file'}-${key}`)?.click();
    return html`
      <div
        part="dropzone"
        class="dropzone"
        data-testid="dropzone-${key}"
        data-type=${type}
        data-side=${side ?? nothing}
        ?data-over=${this.dragOver === key}
        @dragenter=${(e: DragEvent) => this.onDragOver(e, key)}
        @dragover=${(e: DragEvent) => this.onDragOver(e, key)}
        @dragleave=${() => (this.dragOver = '')}
        @drop=${(e: DragEvent) => this.onDrop(e, requirement, type, side)}
      >
        <!-- A lone zone named like its requirement would repeat the heading: screen readers still get it (the buttons point here). -->
        <p class=${!side && type === requirement ? 'dropzone-label visually-hidden' : 'dropzone-label'} id="zone-${key}">${label}</p>
        <p class="hint drop-hint" aria-hidden="true">${this.t('uploader.dropHere')}</p>
        ${sent ? html`<p class="sent-mark" data-testid="sent-${key}">✓ ${this.t('uploader.sentMark', { file: sent.fileName })}</p>` : nothing}
        <div class="zone-buttons">
          <button
            type="button"
            part="choose"
            class="primary small"
            data-testid="choose-${key}"
            aria-describedby="zone-${key}"
            @click=${() => pick(false)}
          >
            ${this.t('uploader.choose')}
          </button>
          <button type="button" part="camera" class="small" data-testid="camera-${key}" aria-describedby="zone-${key}" @click=${() => pick(true)}>
            ${this.t('uploader.camera')}
          </button>
        </div>
        <input
          id="file-${key}"
          data-testid="input-${key}"
          type="file"
          hidden
          accept="image/*,application/pdf"
          ?multiple=${!side}
          @change=${(e: Event) => this.onPicked(e, requirement, type, side)}
        />
        <input
          id="camera-${key}"
          data-testid="capture-${key}"
          type="file"
          hidden
          accept="image/*"
          capture="environment"
          @change=${(e: Event) => this.onPicked(e, requirement, type, side)}
        />
      </div>
    `;
  }

  private renderUpload(upload: Upload): TemplateResult {
    const nameId = `upload-${upload.id}-name`;
    const percent = upload.total > 0 ? Math.floor((upload.loaded / upload.total) * 100) : 0;
    const percentText = new Intl.NumberFormat(this.i18n.locale, { style: 'percent' }).format(percent / 100);
    const where = upload.side ? this.zoneLabel(upload.type, upload.side) : this.typeLabel(upload.type);
    return html`
      <li part="upload" class="upload" data-state=${upload.state} data-testid="upload" data-type=${upload.type} data-side=${upload.side ?? nothing}>
        <div class="upload-line">
          <span id=${nameId} class="upload-name">${upload.file.name}</span>
          <span class="muted">${where} · ${formatBytes(upload.file.size, this.i18n.locale)}</span>
        </div>
        ${upload.state === 'uploading' || upload.state === 'checking'
          ? html`
              <div class="progress-line">
                <progress
                  part="progress"
                  data-testid="progress"
                  max="100"
                  .value=${percent}
                  aria-labelledby=${nameId}
                  aria-valuemin="0"
                  aria-valuemax="100"
                  aria-valuenow=${percent}
                  aria-valuetext=${percentText}
                ></progress>
                <span class="muted" aria-hidden="true">${percentText}</span>
                <button
                  type="button"
                  part="cancel"
                  class="small"
                  data-testid="cancel"
                  aria-label=${this.t('uploader.cancelLabel', { file: upload.file.name })}
                  @click=${() => this.cancel(upload.id)}
                >
                  ${this.t('uploader.cancel')}
                </button>
              </div>
            `
          : nothing}
        ${upload.error
          ? html`
              <p part="upload-error" class="error" role="alert" data-testid="upload-error" data-kind=${upload.error.kind}>${this.errorText(upload.error)}</p>
              <div class="actions start">
                ${'retry' in upload.error
                  ? html`<button
                      type="button"
                      part="retry"
                      class="small primary"
                      data-testid="retry"
                      aria-label=${this.t('uploader.retryLabel', { file: upload.file.name })}
                      @click=${() => void this.send(upload.id)}
                    >
                      ${this.t('uploader.retry')}
                    </button>`
                  : nothing}
                <button
                  type="button"
                  part="remove"
                  class="small"
                  data-testid="remove"
                  aria-label=${this.t('uploader.removeLabel', { file: upload.file.name })}
                  @click=${() => this.removeUpload(upload.id)}
                >
                  ${this.t('uploader.remove')}
                </button>
              </div>
            `
          : nothing}
      </li>
    `;
  }

  private renderDocuments(requirement: string, docs: readonly Document[]): TemplateResult {
    return html`
      <ul part="documents" class="documents" data-testid="documents-${requirement}" aria-label=${this.t('uploader.sentTitle')}>
        ${docs.map(
          (d) => html`
            <li part="document" class="document" data-status=${d.status} data-testid="document" data-type=${d.type}>
              <span class="document-name">${d.fileName}</span>
              <span class="muted">${d.side ? this.zoneLabel(d.type, d.side) : this.typeLabel(d.type)}</span>
              <span part="status" class="badge" data-status=${d.status}>${this.statusLabel(d.status)}</span>
              ${d.comment ? html`<span part="comment" class="comment" data-testid="comment">${this.t('uploader.comment', { comment: d.comment })}</span>` : nothing}
            </li>
          `,
        )}
      </ul>
    `;
  }

  // ── labels ──

  private typeLabel(type: string): string {
    const key = requirementKey(type);
    return key ? this.i18n.t(key) : humanize(type);
  }

  private statusLabel(status: string): string {
    switch (status) {
      case 'NOT_SENT':
      case 'SENT':
      case 'APPROVED':
      case 'REJECTED':
        return this.t(`uploader.status.${status}`);
      default:
        return status;
    }
  }

  private errorText(error: UploadError): string {
    switch (error.kind) {
      case 'tooLarge':
      case 'badType':
      case 'empty':
      case 'network':
      case 'session':
        return this.t(`uploader.error.${error.kind}`);
      case 'server':
        return this.t('uploader.error.server', { code: error.code });
      case 'needsInfo':
      case 'locked':
        return this.t(`uploader.error.${error.kind}`);
      case 'invalid':
        return this.t('uploader.error.invalid', { detail: error.detail });
    }
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
    const files = [...(event.dataTransfer?.files ?? [])];
    this.accept(files, requirement, type, side);
  }

  private onPicked(event: Event, requirement: string, type: DocumentType, side: Side | undefined): void {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = ''; // the same file picked again (after a removal) must fire `change` again
    this.accept(files, requirement, type, side);
  }

  /** One upload per file; a front or a back takes one file. */
  private accept(files: File[], requirement: string, type: DocumentType, side: Side | undefined): void {
    const chosen = side ? files.slice(0, 1) : files;
    // A new pick in a zone replaces the attempts that failed there: their error cards would outlive a good upload.
    if (chosen.length) this.uploads = this.uploads.filter((u) => !(u.error && u.requirement === requirement && u.type === type && u.side === side));
    for (const file of chosen) {
      const upload: Upload = {
        id: nextUploadId++,
        requirement,
        type,
        side,
        country: isIdentityType(type) ? this.countryFor(requirement) : undefined,
        file,
        state: 'checking',
        loaded: 0,
        total: file.size,
        idempotencyKey: newIdempotencyKey(),
      };
      this.uploads = [...this.uploads, upload];
      void this.send(upload.id);
    }
  }

  private patch(id: number, changes: Partial<Upload>): Upload | undefined {
    let updated: Upload | undefined;
    this.uploads = this.uploads.map((u) => (u.id === id ? (updated = { ...u, ...changes }) : u));
    return updated;
  }

  /** Checks the file (first attempt) and sends it; a retry sends the same fields with the same Idempotency-Key. */
  private async send(id: number): Promise<void> {
    const sending = this.checkAndSend(id);
    this.sending.add(sending);
    try {
      await sending;
    } finally {
      this.sending.delete(sending);
    }
  }

  private async checkAndSend(id: number): Promise<void> {
    let upload = this.uploads.find((u) => u.id === id);
    if (!upload || upload.state === 'uploading') return;
    const { error: _previous, ...rest } = upload;
    upload = { ...rest, state: 'checking', loaded: 0 };
    this.uploads = this.uploads.map((u) => (u.id === id ? upload! : u));
    const refusal = await checkFile(upload.file);
    if (refusal) {
      this.patch(id, { state: 'refused', error: { kind: refusal } });
      return;
    }
    const abort = new AbortController();
    if (!this.patch(id, { state: 'uploading', abort })) return; // removed meanwhile
    this.announce(this.t('uploader.uploading', { file: upload.file.name }));
    const fields: [string, string][] = [['type', upload.type]];
    if (upload.side) fields.push(['side', upload.side]);
    if (upload.country) fields.push(['country', upload.country]);
    if (this.associatedPartyId) fields.push(['associatedPartyId', this.associatedPartyId]);
    try {
      const document = await uploadMultipart<Document>({
        url: joinUrl(this.apiBase, 'customer/documents'),
        session: this.session,
        idempotencyKey: upload.idempotencyKey,
        fields,
        file: upload.file,
        fileName: upload.file.name,
        signal: abort.signal,
        onProgress: ({ loaded, total }) => this.patch(id, { loaded, total }),
      });
      this.uploads = this.uploads.filter((u) => u.id !== id);
      this.stored(document, upload.requirement);
      this.announce(this.t('uploader.uploaded', { file: upload.file.name }));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const failure = this.failureOf(error);
      const { abort: _a, ...current } = this.uploads.find((u) => u.id === id) ?? upload;
      this.uploads = this.uploads.map((u) => (u.id === id ? { ...current, state: 'failed', error: failure } : u));
    }
  }

  private failureOf(error: unknown): UploadError {
    if (error instanceof NetworkError) return { kind: 'network', retry: true };
    if (!(error instanceof ProblemError)) return { kind: 'server', code: 'CLIENT_ERROR', retry: true };
    if (error.status === 413) return { kind: 'tooLarge' };
    if (error.status === 415) return { kind: 'badType' };
    if (error.status === 401) return { kind: 'session', retry: true };
    if (error.status === 409) {
      const missing = Array.isArray(error.problem.missing) ? error.problem.missing : [];
      return missing.includes('ADDITIONAL_INFORMATION') ? { kind: 'needsInfo', detail: error.detail } : { kind: 'locked', detail: error.detail };
    }
    if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
      const detail = error.errors.length ? error.errors.map((e) => `${e.path}: ${e.message}`).join('; ') : error.detail;
      return { kind: 'invalid', detail };
    }
    return { kind: 'server', code: error.code, retry: true };
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

  private cancel(id: number): void {
    const upload = this.uploads.find((u) => u.id === id);
    if (!upload) return;
    upload.abort?.abort();
    this.uploads = this.uploads.filter((u) => u.id !== id);
    this.announce(this.t('uploader.cancelled', { file: upload.file.name }));
    void this.focusZone(upload);
  }

  private removeUpload(id: number): void {
    const upload = this.uploads.find((u) => u.id === id);
    this.uploads = this.uploads.filter((u) => u.id !== id);
    if (upload) void this.focusZone(upload);
  }

  /** The button that was just removed had focus: give it to the zone's picker, not to the page. */
  private async focusZone(upload: Upload): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`[data-testid="choose-${this.zoneKey(upload.type, upload.side)}"]`)?.focus();
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
