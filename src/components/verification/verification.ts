// <ramp-verification>: the hosted verification page (`/verify/{token}`): what is still required, the selfie (liveness), and the outcome.
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { RampElement } from '../ramp-element';
import type { Bundle } from '../../i18n';
import type { Customer } from '../../contract/customers';
import { NetworkError, ProblemError, createBffClient } from '../../client/bff-client';
import { pollingFeed } from '../../client/feed';
import { newIdempotencyKey } from '../../client/idempotency';
import { joinUrl, uploadMultipart } from '../../client/upload';
import { RampErrorEvent } from '../../events/error';
import { RampVerificationChangedEvent } from '../../events/verification-changed';
import { I18nController, type MessageKey, type TranslateArgs } from '../../i18n';
import { CustomerWatch } from '../customer-watch';
import { checkFile, IMAGE_KINDS } from '../document-uploader/file-check';
import { isDocumentRequirement } from '../document-uploader/requirements';
import { CameraController, cameraFailure, type CameraFailure } from './camera';
import { livenessNeeded, selfieFailure, type Phase, type SelfieError } from './selfie';
import { renderDocuments, renderLiveness, renderOutcome, renderRequirements } from './views';
import { verificationStyles } from './verification.styles';
// It renders <ramp-document-uploader> in its shadow root, out of the loader's sight: defined here.
import '../../elements/document-uploader';

const optionalAttribute = { toAttribute: (value: string | undefined) => value || null };

type Status = Customer['verification']['status'];

/** The hosted page's API, beside the SDK: `{origin}/verify/api` for `{origin}/sdk/ramp-widget.js`. */
function defaultVerifyApi(): string {
  return new URL(/* @vite-ignore */ '../verify/api', import.meta.url).href;
}

/**
 * The component of the hosted verification page that `verification.link` opens (a first-party page of ours, so the
 * camera permission is asked by our origin, not a partner's). It shows whose verification it is and its status, what
 * is still required (with the uploader for missing or rejected documents), and the liveness check: a selfie from the
 * front camera with a live preview, or a photo file when there is no camera or permission was refused. In sandbox a
 * button simulates the check. Afterwards it follows the review and shows the outcome.
 *
 * @summary Hosted verification: requirements, selfie liveness check with camera or file, live outcome.
 * @tag ramp-verification
 *
 * @fires ramp-verification-changed - {RampVerificationChangedEvent} When the status seen changes; `detail` is `{customerId, status}`.
 * @fires ramp-document-uploaded - {RampDocumentUploadedEvent} From the uploader inside, once per stored file.
 * @fires ramp-error - {RampErrorEvent} When the verification cannot be loaded (bad or expired link, network).
 *
 * @csspart base - The card around everything.
 * @csspart title - The heading.
 * @csspart status-badge - The verification status.
 * @csspart requirements - The list of requirements with their status.
 * @csspart uploader - The `<ramp-document-uploader>` for missing or rejected documents.
 * @csspart liveness - The selfie section.
 * @csspart video - The live camera preview.
 * @csspart selfie - The captured photo.
 * @csspart button - Every button.
 * @csspart progress - The selfie upload progress.
 * @csspart sandbox - The sandbox-only simulation box.
 * @csspart outcome - The status panel after the selfie.
 * @csspart alert - An error.
 *
 * @cssprop --ramp-color-primary - Accent.
 * @cssprop --ramp-color-surface - Background.
 * @cssprop --ramp-color-text - Text.
 * @cssprop --ramp-color-border - Borders.
 * @cssprop --ramp-color-danger - Errors.
 * @cssprop --ramp-color-success - Approval.
 * @cssprop --ramp-radius - Corner radius.
 * @cssprop --ramp-space - Base spacing.
 * @cssprop --ramp-font-family - Font.
 * @cssprop --ramp-verification-background - Card background.
 * @cssprop --ramp-verification-border-color - Card border.
 * @cssprop --ramp-verification-padding - Card padding.
 * @cssprop --ramp-verification-max-width - Card width limit (default 40rem).
 * @cssprop --ramp-verification-button-background - Primary button background.
 * @cssprop --ramp-verification-button-color - Primary button text.
 */
export class RampVerification extends RampElement {
  protected override messageBundles(): readonly Bundle[] {
    return ['core', 'kyc'];
  }

  static override styles = verificationStyles;

  /** The hosted page's API. Default: `/verify/api` on the script's origin. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultVerifyApi();

  /** The verification-link token (the last segment of `/verify/{token}`). */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** Language (`en`, `pt-BR`, `es`); when empty, the closest `[lang]` above, then the browser's languages, then English. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** Sandbox: shows a button that completes the liveness check without a camera. */
  @property({ type: Boolean, reflect: true }) sandbox = false;

  /** Level of the title (1 on the hosted page, where this is the page's content); sections are one below. */
  @property({ attribute: 'heading-level', type: Number }) headingLevel = 1;

  /** After a final decision the hosted API answers the outcome alone: no name and no requirements. */
  @state() private customer: Customer | undefined;
  @state() private loadState: 'loading' | 'ready' | 'failed' = 'loading';
  @state() private phase: Phase = 'idle';
  @state() private fallback: CameraFailure | undefined;
  @state() private selfieError: SelfieError | undefined;
  @state() private photoUrl = '';
  @state() private progress = 0;
  @state() private announcement = '';

  @query('video') private video!: HTMLVideoElement | null;

  private readonly i18n = new I18nController(this);
  private readonly camera = new CameraController(this);
  private photo: Blob | undefined;
  /** One key per photo: a retry of the same photo is the same request. */
  private photoKey = '';
  private uploadAbort: AbortController | undefined;
  private seenStatus: Status | undefined;

  private readonly watch = new CustomerWatch(this, {
    feed: () => pollingFeed((signal) => this.client().getCustomer({ signal }), { intervalMs: this.pollIntervalMs }),
    onCustomer: (customer) => this.setCustomer(customer),
  });

  /** Milliseconds between reads while following the review. */
  pollIntervalMs = 2_000;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.uploadAbort?.abort();
    this.forgetPhoto();
    // The camera controller stops its tracks in hostDisconnected.
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('session') || changed.has('apiBase')) && this.session) void this.load();
  }

  protected override updated(): void {
    // Attach the stream once the <video> exists (it renders only in the preview phase).
    const video = this.video;
    if (video && this.camera.stream && video.srcObject !== this.camera.stream) {
      video.srcObject = this.camera.stream;
      void video.play().catch(() => undefined);
    }
  }

  private client() {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  private t<K extends MessageKey>(key: K, ...args: TranslateArgs<K>): string {
    return this.i18n.t(key, ...args);
  }

  private async load(): Promise<void> {
    try {
      const customer = await this.client().getCustomer();
      this.loadState = 'ready';
      this.setCustomer(customer);
    } catch (error) {
      this.loadState = 'failed';
      this.dispatchEvent(
        new RampErrorEvent({
          code: error instanceof ProblemError ? error.code : error instanceof NetworkError ? 'NETWORK_ERROR' : 'CLIENT_ERROR',
          status: error instanceof ProblemError ? error.status : null,
          detail: error instanceof Error ? error.message : String(error),
          operation: 'getCustomer',
        }),
      );
    }
  }

  private setCustomer(customer: Customer): void {
    const previous = this.seenStatus;
    const status = customer.verification.status;
    this.customer = customer;
    this.seenStatus = status;
    if (previous !== undefined && previous !== status) {
      this.dispatchEvent(new RampVerificationChangedEvent({ customerId: customer.id, status }));
      this.announce(`${this.t('done.status')}: ${this.t(`status.${status}`)}`);
    }
    // Follow the review while it runs, or once everything is in and it is about to start.
    const allSent = !customer.requirements.some((r) => r.status === 'NOT_SENT');
    if (status === 'UNDER_VERIFICATION' || (status === 'NOT_STARTED' && allSent)) this.watch.start();
    else this.watch.stop();
  }

  // ── rendering ──

  private level(offset = 0): number {
    return Math.min(6, Math.max(1, Math.round(this.headingLevel) || 1) + offset);
  }

  protected override render(): TemplateResult {
    return html`
      <div part="base" class="base" lang=${this.i18n.locale} @ramp-document-uploaded=${this.onDocumentUploaded}>
        <div role="heading" aria-level=${this.level()} part="title" class="title" id="title">${this.t('verification.title')}</div>
        ${this.renderBody()}
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </div>
    `;
  }

  private renderBody(): TemplateResult {
    if (this.loadState === 'failed') {
      return html`<div part="alert" class="alert" role="alert" data-testid="load-failed">
        <p>${this.t('verification.loadFailed')}</p>
        <button part="button" type="button" class="small" @click=${() => void this.load()}>${this.t('alert.retry')}</button>
      </div>`;
    }
    const customer = this.customer;
    if (!customer) return html`<p class="muted" data-testid="loading"><span class="spinner" aria-hidden="true"></span> ${this.t('verification.loading')}</p>`;
    const status = customer.verification.status;
    const name = customer.name ?? customer.legalName ?? '';
    const open = status === 'NOT_STARTED' || status === 'TEMPORARY_REJECTION';
    const missingDocs = customer.requirements.filter((r) => isDocumentRequirement(r.name) && (r.status === 'NOT_SENT' || r.status === 'REJECTED'));
    return html`
      <p class="who">
        ${name ? html`<span data-testid="customer-name">${this.t('verification.for', { name })}</span>` : nothing}
        <span part="status-badge" class="badge" data-status=${status} data-testid="verification-status">${this.t(`status.${status}`)}</span>
      </p>
      ${customer.requirements.length ? renderRequirements(this.i18n, customer, this.level(1)) : nothing}
      ${open && missingDocs.length
        ? renderDocuments(this.i18n, {
            apiBase: this.apiBase,
            session: this.session,
            theme: this.theme,
            types: missingDocs.map((r) => r.name),
            levels: [this.level(1), this.level(2)],
          })
        : nothing}
      ${livenessNeeded(customer) ? this.renderLiveness() : renderOutcome(this.i18n, customer, this.level(1))}
    `;
  }

  private renderLiveness(): TemplateResult {
    return renderLiveness(this.i18n, {
      phase: this.phase,
      level: this.level(1),
      selfieError: this.selfieError,
      fallback: this.fallback,
      cameraSupported: this.camera.supported,
      photoUrl: this.photoUrl,
      progress: this.progress,
      sandbox: this.sandbox,
      startCamera: () => void this.startCamera(),
      stopCamera: () => this.stopCamera(),
      capture: () => void this.capture(),
      send: () => void this.send(),
      retake: () => void this.retake(),
      simulate: () => void this.simulate(),
      onFile: this.onFile,
    });
  }

  // ── the selfie ──

  private async startCamera(): Promise<void> {
    this.selfieError = undefined;
    this.phase = 'starting';
    try {
      await this.camera.start();
      this.phase = 'preview';
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[data-testid="capture"]')?.focus();
    } catch (error) {
      this.camera.stop();
      this.fallback = cameraFailure(error);
      this.selfieError = { kind: this.fallback };
      this.phase = 'idle';
      this.announce(this.t(`liveness.error.${this.fallback}`));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#selfie-file')?.focus();
    }
  }

  private stopCamera(): void {
    this.camera.stop();
    this.phase = 'idle';
  }

  private async capture(): Promise<void> {
    const video = this.video;
    if (!video) return;
    const blob = await this.camera.capture(video);
    // The photo is taken: the camera (and its light) goes off at once.
    this.camera.stop();
    this.keepPhoto(blob);
    this.phase = 'captured';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[data-testid="use-photo"]')?.focus();
  }

  private async retake(): Promise<void> {
    this.forgetPhoto();
    this.phase = 'idle';
    if (!this.fallback && this.camera.supported) await this.startCamera();
  }

  private onFile = async (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const refusal = await checkFile(file, { kinds: IMAGE_KINDS });
    if (refusal) {
      this.selfieError = { kind: refusal };
      return;
    }
    this.selfieError = undefined;
    this.keepPhoto(file);
    this.phase = 'captured';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[data-testid="use-photo"]')?.focus();
  };

  private keepPhoto(blob: Blob): void {
    this.forgetPhoto();
    this.photo = blob;
    this.photoKey = newIdempotencyKey();
    this.photoUrl = URL.createObjectURL(blob);
  }

  private forgetPhoto(): void {
    if (this.photoUrl) URL.revokeObjectURL(this.photoUrl);
    this.photoUrl = '';
    this.photo = undefined;
  }

  private async send(): Promise<void> {
    const photo = this.photo;
    if (!photo || this.phase === 'uploading') return;
    this.phase = 'uploading';
    this.progress = 0;
    this.selfieError = undefined;
    this.announce(this.t('liveness.uploading'));
    const abort = (this.uploadAbort = new AbortController());
    try {
      const customer = await uploadMultipart<Customer>({
        url: joinUrl(this.apiBase, 'customer/liveness'),
        session: this.session,
        idempotencyKey: this.photoKey,
        file: photo,
        fileName: photo instanceof File ? photo.name : 'selfie.jpg',
        signal: abort.signal,
        onProgress: ({ loaded, total }) => (this.progress = Math.floor((loaded / total) * 100)),
      });
      this.forgetPhoto();
      this.phase = 'idle';
      this.announce(this.t('liveness.done'));
      this.setCustomer(customer);
      await this.focusOutcome();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      this.phase = 'captured';
      this.selfieError = selfieFailure(error);
    }
  }

  private async simulate(): Promise<void> {
    this.selfieError = undefined;
    try {
      this.camera.stop();
      const customer = await this.client().simulateLiveness({ idempotencyKey: newIdempotencyKey() });
      this.phase = 'idle';
      this.announce(this.t('liveness.done'));
      this.setCustomer(customer);
      await this.focusOutcome();
    } catch (error) {
      this.selfieError = selfieFailure(error);
    }
  }

  private async focusOutcome(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#outcome-title')?.focus();
  }

  private onDocumentUploaded = async (): Promise<void> => {
    try {
      this.setCustomer(await this.client().getCustomer());
    } catch {
      // the next read brings it
    }
  };

  private announce(message: string): void {
    this.announcement = message === this.announcement ? `${message}\u00a0` : message;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-verification': RampVerification;
  }
}
