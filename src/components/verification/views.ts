// The sub-templates of <ramp-verification>: what is required, the liveness check (camera, photo, file, sandbox), and the outcome.
import { html, nothing, type TemplateResult } from 'lit';
import type { Customer } from '../../contract/customers';
import type { I18nController } from '../../i18n';
import { humanize, requirementKey, statusText } from '../kyc-labels';
import type { CameraFailure } from './camera';
import type { Phase, SelfieError } from './selfie';

type Status = Customer['verification']['status'];
const tone: Partial<Record<Status, string>> = { APPROVED: 'success', TEMPORARY_REJECTION: 'danger', FINAL_REJECTION: 'danger' };

export function renderRequirements(i18n: I18nController, customer: Customer, level: number): TemplateResult {
  return html`
    <section aria-labelledby="required-title">
      <div role="heading" aria-level=${level} id="required-title" class="section-title">${i18n.t('verification.required')}</div>
      <ul part="requirements" class="requirements" data-testid="requirements">
        ${customer.requirements.map((r) => {
          const key = requirementKey(r.name);
          return html`<li data-requirement=${r.name} data-status=${r.status}>
            <span>${key ? i18n.t(key) : humanize(r.name)}</span>
            <span class="badge" data-status=${r.status}>${statusText(i18n, r.status, humanize)}</span>
          </li>`;
        })}
      </ul>
    </section>
  `;
}

/** The uploader for the documents still missing or refused, its headings below the section's (`levels`). */
export function renderDocuments(
  i18n: I18nController,
  uploader: { apiBase: string; session: string; theme: string | undefined; types: readonly string[]; levels: readonly [section: number, uploader: number] },
): TemplateResult {
  return html`<section aria-labelledby="documents-title">
    <div role="heading" aria-level=${uploader.levels[0]} id="documents-title" class="section-title">${i18n.t('verification.documents')}</div>
    <ramp-document-uploader
      part="uploader"
      data-testid="uploader"
      api-base=${uploader.apiBase}
      session=${uploader.session}
      lang=${i18n.locale}
      theme=${uploader.theme ?? nothing}
      types=${uploader.types.join(' ')}
      heading-level=${uploader.levels[1]}
    ></ramp-document-uploader>
  </section>`;
}

/** What the liveness section shows and does, from the element that owns the camera and the photo. */
export interface LivenessView {
  phase: Phase;
  level: number;
  selfieError: SelfieError | undefined;
  /** Why the camera could not be used (the file input then stands in for it). */
  fallback: CameraFailure | undefined;
  cameraSupported: boolean;
  photoUrl: string;
  progress: number;
  sandbox: boolean;
  startCamera: () => void;
  stopCamera: () => void;
  capture: () => void;
  send: () => void;
  retake: () => void;
  simulate: () => void;
  onFile: (event: Event) => void;
}

export function renderLiveness(i18n: I18nController, view: LivenessView): TemplateResult {
  const phase = view.phase;
  return html`
    <section part="liveness" class="camera" aria-labelledby="liveness-title" data-testid="liveness" data-phase=${phase}>
      <div role="heading" aria-level=${view.level} id="liveness-title" class="section-title" tabindex="-1">${i18n.t('liveness.title')}</div>
      <p>${i18n.t('liveness.selfie.intro')}</p>
      ${view.selfieError ? renderSelfieError(i18n, view.selfieError) : nothing}
      ${phase === 'preview' || phase === 'starting'
        ? html`<video part="video" data-testid="video" autoplay playsinline muted aria-label=${i18n.t('liveness.camera.preview')}></video>
            <div class="actions start">
              <button part="button" type="button" class="primary" data-testid="capture" ?disabled=${phase === 'starting'} @click=${view.capture}>
                ${i18n.t('liveness.camera.capture')}
              </button>
              <button part="button" type="button" data-testid="stop-camera" @click=${view.stopCamera}>${i18n.t('liveness.camera.cancel')}</button>
            </div>`
        : nothing}
      ${phase === 'captured' || phase === 'uploading'
        ? html`<img part="selfie" class="selfie" data-testid="selfie" src=${view.photoUrl} alt=${i18n.t('liveness.photo.alt')} />
            ${phase === 'uploading'
              ? html`<progress
                  part="progress"
                  data-testid="selfie-progress"
                  max="100"
                  .value=${view.progress}
                  aria-label=${i18n.t('liveness.progress')}
                  aria-valuemin="0"
                  aria-valuemax="100"
                  aria-valuenow=${view.progress}
                ></progress>`
              : html`<div class="actions start">
                  <button part="button" type="button" class="primary" data-testid="use-photo" @click=${view.send}>${i18n.t('liveness.photo.use')}</button>
                  <button part="button" type="button" data-testid="retake" @click=${view.retake}>${i18n.t('liveness.photo.retake')}</button>
                </div>`}`
        : nothing}
      ${phase === 'idle' && !view.fallback && view.cameraSupported
        ? html`<div class="actions start">
            <button part="button" type="button" class="primary" data-testid="start-camera" @click=${view.startCamera}>${i18n.t('liveness.camera.start')}</button>
          </div>`
        : nothing}
      ${phase === 'idle' && (view.fallback || !view.cameraSupported) ? renderFileFallback(i18n, view.onFile) : nothing}
      ${view.sandbox
        ? html`<div part="sandbox" class="sandbox" data-testid="sandbox">
            <p class="hint">${i18n.t('liveness.sandbox.hint')}</p>
            <button part="button" type="button" data-testid="simulate-liveness" @click=${view.simulate}>${i18n.t('liveness.sandbox.simulate')}</button>
          </div>`
        : nothing}
    </section>
  `;
}

function renderFileFallback(i18n: I18nController, onFile: (event: Event) => void): TemplateResult {
  return html`<div class="file-fallback" data-testid="file-fallback">
    <label for="selfie-file">${i18n.t('liveness.file.label')}</label>
    <input id="selfie-file" data-testid="selfie-file" type="file" accept="image/jpeg,image/png" capture="user" @change=${onFile} />
  </div>`;
}

function renderSelfieError(i18n: I18nController, error: SelfieError): TemplateResult {
  let message: string;
  switch (error.kind) {
    case 'server':
      message = i18n.t('liveness.error.server', { code: error.code });
      break;
    case 'state':
      message = i18n.t('liveness.error.state');
      break;
    default:
      message = i18n.t(`liveness.error.${error.kind}`);
  }
  return html`<div part="alert" class="alert" role="alert" data-testid="selfie-error" data-kind=${error.kind}><p>${message}</p></div>`;
}

/** The review's state, and what happens next. */
export function renderOutcome(i18n: I18nController, customer: Customer, level: number): TemplateResult {
  const status = customer.verification.status;
  const following = status === 'UNDER_VERIFICATION' || status === 'NOT_STARTED';
  const waitingForDocuments = status === 'NOT_STARTED' && customer.requirements.some((r) => r.status === 'NOT_SENT');
  const message = waitingForDocuments ? i18n.t('verification.waitingForDocuments') : i18n.t(`kyc.status.message.${status}`);
  return html`
    <section part="outcome" class="notice" data-tone=${tone[status] ?? nothing} data-testid="outcome" data-status=${status} aria-labelledby="outcome-title">
      <div role="heading" aria-level=${level} id="outcome-title" class="section-title status-line" tabindex="-1">
        ${following && !waitingForDocuments ? html`<span class="spinner" aria-hidden="true"></span>` : nothing} ${i18n.t(`status.${status}`)}
      </div>
      <p data-testid="outcome-message">${message}</p>
      ${status === 'APPROVED' || status === 'UNDER_VERIFICATION' || status === 'FINAL_REJECTION' ? html`<p class="hint">${i18n.t('verification.closeWindow')}</p>` : nothing}
    </section>
  `;
}
