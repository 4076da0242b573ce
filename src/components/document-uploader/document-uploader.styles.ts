// Styles of <ramp-document-uploader>: tier 2 tokens (`--ramp-document-uploader-*`) over the shared tier 1 theme.
import { css } from 'lit';
import { themeTokens, visuallyHidden } from '../theme.styles';
import { controlStyles } from '../controls.styles';

export const documentUploaderStyles = [
  themeTokens,
  visuallyHidden,
  controlStyles,
  css`
    :host {
      --_input-background: var(--ramp-document-uploader-input-background, var(--_color-surface));
      --_button-background: var(--ramp-document-uploader-button-background, var(--_color-primary));
      --_button-color: var(--ramp-document-uploader-button-color, var(--_color-on-primary));
    }
    .base {
      display: grid;
      gap: var(--_space);
    }
    .requirement {
      display: grid;
      gap: 0.6em;
      padding: var(--ramp-document-uploader-padding, var(--_space));
      background: var(--ramp-document-uploader-background, var(--_color-surface));
      border: 1px solid var(--ramp-document-uploader-border-color, var(--_color-border));
      border-radius: var(--_radius);
    }
    .requirement[data-status='REJECTED'] {
      border-color: var(--_color-danger);
    }
    .requirement-header {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5em;
      align-items: center;
      justify-content: space-between;
    }
    .requirement-title {
      font-size: 1.05em;
    }
    .zones {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr));
      gap: 0.6em;
    }
    .dropzone {
      display: grid;
      gap: 0.5em;
      justify-items: start;
      padding: 0.9em;
      border: 2px dashed var(--ramp-document-uploader-dropzone-border-color, var(--_color-border));
      border-radius: var(--_radius);
      background: var(--ramp-document-uploader-dropzone-background, var(--_color-surface-raised));
    }
    .dropzone[data-over] {
      border-color: var(--_color-primary);
      background: var(--ramp-document-uploader-dropzone-active-background, var(--_color-surface));
    }
    .dropzone-label {
      font-weight: 600;
    }
    .zone-buttons {
      display: flex;
      flex-wrap: wrap;
      gap: 0.4em;
    }
    /* A phone has no files to drag: it is offered the buttons alone. */
    @media (pointer: coarse) {
      .drop-hint {
        display: none;
      }
    }
    .sent-mark {
      font-size: 0.875em;
      color: var(--_color-success);
    }
    .uploads,
    .documents {
      display: grid;
      gap: 0.5em;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .upload {
      display: grid;
      gap: 0.35em;
      padding: 0.6em 0.75em;
      border: 1px solid var(--_color-border);
      border-radius: var(--_radius);
    }
    .upload[data-state='failed'],
    .upload[data-state='refused'] {
      border-color: var(--_color-danger);
      background: var(--_color-danger-surface);
    }
    .upload-line,
    .document {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25em 0.75em;
      align-items: center;
      overflow-wrap: anywhere;
    }
    .upload-name,
    .document-name {
      font-weight: 600;
    }
    .progress-line {
      display: flex;
      gap: 0.6em;
      align-items: center;
    }
    .progress-line progress {
      flex: 1;
    }
    .document {
      padding: 0.4em 0;
      border-top: 1px solid var(--_color-border);
    }
    .comment {
      flex-basis: 100%;
      font-size: 0.875em;
      color: var(--_color-danger);
    }
  `,
];
