// `ramp-document-uploaded`: the server stored one document (one file, one side); `detail` is its record as the API answered it.
import { rampEvent } from './ramp-event';
import type { Document } from '../contract/kyc';

export type RampDocumentUploadedDetail = Document;

export class RampDocumentUploadedEvent extends rampEvent('ramp-document-uploaded')<RampDocumentUploadedDetail> {}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-document-uploaded': RampDocumentUploadedEvent;
  }
  interface DocumentEventMap {
    'ramp-document-uploaded': RampDocumentUploadedEvent;
  }
}
