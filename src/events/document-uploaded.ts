// `ramp-document-uploaded`: the server stored one document (one file, one side); `detail` is its record as the API answered it.
import type { Document } from '../contract/kyc';

export type RampDocumentUploadedDetail = Document;

export class RampDocumentUploadedEvent extends CustomEvent<RampDocumentUploadedDetail> {
  static readonly eventName = 'ramp-document-uploaded';

  constructor(detail: RampDocumentUploadedDetail) {
    super(RampDocumentUploadedEvent.eventName, { detail, bubbles: true, composed: true });
  }
}

/** Also on Document: the event bubbles and is composed, so `document.addEventListener(…)` receives it typed. */
declare global {
  interface HTMLElementEventMap {
    'ramp-document-uploaded': RampDocumentUploadedEvent;
  }
  interface DocumentEventMap {
    'ramp-document-uploaded': RampDocumentUploadedEvent;
  }
}
