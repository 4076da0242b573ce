// The sub-templates of <ramp-document-uploader>: a drop zone, the identity type and country choices, an upload's card, the sent documents.
import { html, nothing, type TemplateResult } from 'lit';
import type { Document, DocumentType } from '../../contract/kyc';
import type { I18nController } from '../../i18n';
import { rejectionText } from '../kyc-labels';
import { countryOptions } from '../onboarding/countries';
import { formatBytes } from './file-check';
import { errorText, statusLabel, typeLabel, zoneKey, zoneLabel } from './labels';
import type { Side } from './requirements';
import type { Upload } from './upload-queue';

/** What a drop zone does with the user's gestures; the element owns the state behind them. */
export interface ZoneHandlers {
  dragOver: (event: DragEvent, key: string) => void;
  dragLeave: () => void;
  drop: (event: DragEvent) => void;
  picked: (event: Event) => void;
  /** Opens the file picker (`capture`: the camera one). */
  pick: (capture: boolean) => void;
}

export interface ZoneView {
  requirement: string;
  type: DocumentType;
  side: Side | undefined;
  /** The file this zone marks as sent, if any. */
  sent: Document | undefined;
  /** The zone a file is being dragged over. */
  over: boolean;
}

export function renderZone(i18n: I18nController, zone: ZoneView, on: ZoneHandlers): TemplateResult {
  const { requirement, type, side, sent } = zone;
  const key = zoneKey(type, side);
  return html`
    <div
      part="dropzone"
      class="dropzone"
      data-testid="dropzone-${key}"
      data-type=${type}
      data-side=${side ?? nothing}
      ?data-over=${zone.over}
      @dragenter=${(e: DragEvent) => on.dragOver(e, key)}
      @dragover=${(e: DragEvent) => on.dragOver(e, key)}
      @dragleave=${on.dragLeave}
      @drop=${on.drop}
    >
      <!-- A lone zone named like its requirement would repeat the heading: screen readers still get it (the buttons point here). -->
      <p class=${!side && type === requirement ? 'dropzone-label visually-hidden' : 'dropzone-label'} id="zone-${key}">${zoneLabel(i18n, type, side)}</p>
      <p class="hint drop-hint" aria-hidden="true">${i18n.t('uploader.dropHere')}</p>
      ${sent ? html`<p class="sent-mark" data-testid="sent-${key}">✓ ${i18n.t('uploader.sentMark', { file: sent.fileName })}</p>` : nothing}
      <div class="zone-buttons">
        <button
          type="button"
          part="choose"
          class="primary small"
          data-testid="choose-${key}"
          aria-describedby="zone-${key}"
          @click=${() => on.pick(false)}
        >
          ${i18n.t('uploader.choose')}
        </button>
        <button type="button" part="camera" class="small" data-testid="camera-${key}" aria-describedby="zone-${key}" @click=${() => on.pick(true)}>
          ${i18n.t('uploader.camera')}
        </button>
      </div>
      <input
        id="file-${key}"
        data-testid="input-${key}"
        type="file"
        hidden
        accept="image/*,application/pdf"
        ?multiple=${!side}
        @change=${on.picked}
      />
      <input id="camera-${key}" data-testid="capture-${key}" type="file" hidden accept="image/*" capture="environment" @change=${on.picked} />
    </div>
  `;
}

/** The radio group choosing which identity document (ID card, passport, …) completes a requirement. */
export function renderTypeChoice(
  i18n: I18nController,
  requirement: string,
  types: readonly DocumentType[],
  chosen: DocumentType,
  choose: (type: DocumentType) => void,
): TemplateResult {
  return html`
    <fieldset part="type-choice" class="type-choice">
      <legend>${i18n.t('uploader.typeLegend')}</legend>
      <div class="choices">
        ${types.map(
          (type) => html`
            <label class="choice">
              <input type="radio" name="type-${requirement}" value=${type} data-testid="type-${type}" .checked=${type === chosen} @change=${() => choose(type)} />
              <span>${typeLabel(i18n, type)}</span>
            </label>
          `,
        )}
      </div>
    </fieldset>
  `;
}

/** The issuing country of an identity document: the spec's `country` upload field, needed to read the document. */
export function renderCountryChoice(
  i18n: I18nController,
  requirement: string,
  chosen: string,
  first: readonly string[],
  choose: (country: string) => void,
): TemplateResult {
  const id = `country-${requirement}`;
  return html`
    <div class="field country-choice">
      <label for=${id}>${i18n.t('uploader.country')}</label>
      <select id=${id} part="country" data-testid=${id} autocomplete="country" @change=${(e: Event) => choose((e.target as HTMLSelectElement).value)}>
        ${countryOptions(i18n.locale, [...first]).map((c) => html`<option value=${c.code} ?selected=${c.code === chosen}>${c.name}</option>`)}
      </select>
    </div>
  `;
}

export interface UploadHandlers {
  cancel: (id: number) => void;
  retry: (id: number) => void;
  remove: (id: number) => void;
}

/** One file being sent, refused or failed: its progress, why it failed, and what can be done about it. */
export function renderUpload(i18n: I18nController, upload: Upload, on: UploadHandlers): TemplateResult {
  const nameId = `upload-${upload.id}-name`;
  const percent = upload.total > 0 ? Math.floor((upload.loaded / upload.total) * 100) : 0;
  const percentText = new Intl.NumberFormat(i18n.locale, { style: 'percent' }).format(percent / 100);
  const where = upload.side ? zoneLabel(i18n, upload.type, upload.side) : typeLabel(i18n, upload.type);
  const file = upload.file.name;
  return html`
    <li part="upload" class="upload" data-state=${upload.state} data-testid="upload" data-type=${upload.type} data-side=${upload.side ?? nothing}>
      <div class="upload-line">
        <span id=${nameId} class="upload-name">${file}</span>
        <span class="muted">${where} · ${formatBytes(upload.file.size, i18n.locale)}</span>
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
                aria-label=${i18n.t('uploader.cancelLabel', { file })}
                @click=${() => on.cancel(upload.id)}
              >
                ${i18n.t('uploader.cancel')}
              </button>
            </div>
          `
        : nothing}
      ${upload.error
        ? html`
            <p part="upload-error" class="error" role="alert" data-testid="upload-error" data-kind=${upload.error.kind}>${errorText(i18n, upload.error)}</p>
            <div class="actions start">
              ${'retry' in upload.error
                ? html`<button
                    type="button"
                    part="retry"
                    class="small primary"
                    data-testid="retry"
                    aria-label=${i18n.t('uploader.retryLabel', { file })}
                    @click=${() => on.retry(upload.id)}
                  >
                    ${i18n.t('uploader.retry')}
                  </button>`
                : nothing}
              <button
                type="button"
                part="remove"
                class="small"
                data-testid="remove"
                aria-label=${i18n.t('uploader.removeLabel', { file })}
                @click=${() => on.remove(upload.id)}
              >
                ${i18n.t('uploader.remove')}
              </button>
            </div>
          `
        : nothing}
    </li>
  `;
}

/** The documents already sent under a requirement, with their status and, when refused, why. */
export function renderDocuments(i18n: I18nController, requirement: string, docs: readonly Document[]): TemplateResult {
  return html`
    <ul part="documents" class="documents" data-testid="documents-${requirement}" aria-label=${i18n.t('uploader.sentTitle')}>
      ${docs.map(
        (d) => html`
          <li part="document" class="document" data-status=${d.status} data-testid="document" data-type=${d.type}>
            <span class="document-name">${d.fileName}</span>
            <span class="muted">${d.side ? zoneLabel(i18n, d.type, d.side) : typeLabel(i18n, d.type)}</span>
            <span part="status" class="badge" data-status=${d.status}>${statusLabel(i18n, d.status)}</span>
            ${d.status === 'REJECTED' || d.comment
              ? html`<span part="comment" class="comment" data-testid="comment">${i18n.t('uploader.comment', { reasons: rejectionText(i18n, d.rejectLabels) })}</span>`
              : nothing}
          </li>
        `,
      )}
    </ul>
  `;
}
