// The upload queue of <ramp-document-uploader>: one entry per picked file, checked, sent with progress, cancelled or retried with its Idempotency-Key.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Document, DocumentType } from '../../contract/kyc';
import { NetworkError, ProblemError } from '../../client/bff-client';
import { newIdempotencyKey } from '../../client/idempotency';
import { joinUrl, uploadMultipart } from '../../client/upload';
import { checkFile, type FileRefusal } from './file-check';
import type { Side } from './requirements';

export type UploadState = 'checking' | 'uploading' | 'failed' | 'refused';

/** Why an upload is not going through; `retry` says whether the same request may succeed later. */
export type UploadError =
  | { kind: FileRefusal }
  | { kind: 'network' | 'session'; retry: true }
  | { kind: 'server'; code: string; retry: true }
  | { kind: 'needsInfo' | 'locked' | 'full' | 'invalid' };

export interface Upload {
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

/** What the queue asks of its element. */
export interface UploadQueueOptions {
  /** Where and as whom to send, read at each attempt. */
  target: () => { apiBase: string; session: string; associatedPartyId: string };
  /** The file passed its check and is on its way. */
  onSending: (upload: Upload) => void;
  /** The server stored it (the upload has left the queue). */
  onStored: (document: Document, upload: Upload) => void;
  /** The user cancelled or removed it (it has left the queue). */
  onDropped: (upload: Upload, cancelled: boolean) => void;
}

let nextUploadId = 1;

/** The failure a send ended in, as the user is told about it. */
export function failureOf(error: unknown): UploadError {
  if (error instanceof NetworkError) return { kind: 'network', retry: true };
  if (!(error instanceof ProblemError)) return { kind: 'server', code: 'CLIENT_ERROR', retry: true };
  if (error.status === 413) return { kind: 'tooLarge' };
  if (error.status === 415) return { kind: 'badType' };
  if (error.status === 401) return { kind: 'session', retry: true };
  if (error.status === 409) {
    if (error.problem.code === 'DOCUMENT_QUOTA_EXCEEDED') return { kind: 'full' };
    const missing = Array.isArray(error.problem.missing) ? error.problem.missing : [];
    return missing.includes('ADDITIONAL_INFORMATION') ? { kind: 'needsInfo' } : { kind: 'locked' };
  }
  if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
    // The server's English (`detail`, `errors[].message`) stays out of the user's screen: our own sentence, in their language.
    return { kind: 'invalid' };
  }
  return { kind: 'server', code: error.code, retry: true };
}

/** Holds the uploads (a new array on every change, then a host update) and aborts those in flight when the host leaves the page. */
export class UploadQueue implements ReactiveController {
  #items: Upload[] = [];
  /** Uploads between the pick and the server's answer (the file check included). */
  readonly #sending = new Set<Promise<void>>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: UploadQueueOptions,
  ) {
    host.addController(this);
  }

  get uploads(): readonly Upload[] {
    return this.#items;
  }

  #commit(next: Upload[]): void {
    this.#items = next;
    this.host.requestUpdate();
  }

  /** Whether an upload is in flight (between the pick and the server's answer). */
  get busy(): boolean {
    return this.#sending.size > 0;
  }

  /** Resolves once no upload is in flight, those started meanwhile included. */
  async settled(): Promise<void> {
    while (this.#sending.size) await Promise.allSettled([...this.#sending]);
  }

  hostDisconnected(): void {
    for (const upload of this.#items) upload.abort?.abort();
  }

  /** One upload per file; a front or a back takes one file. `country` is sent with an identity document. */
  accept(files: File[], requirement: string, type: DocumentType, side: Side | undefined, country: string | undefined): void {
    const chosen = side ? files.slice(0, 1) : files;
    // A new pick in a zone replaces the attempts that failed there: their error cards would outlive a good upload.
    if (chosen.length) this.#commit(this.#items.filter((u) => !(u.error && u.requirement === requirement && u.type === type && u.side === side)));
    for (const file of chosen) {
      const upload: Upload = {
        id: nextUploadId++,
        requirement,
        type,
        side,
        country,
        file,
        state: 'checking',
        loaded: 0,
        total: file.size,
        idempotencyKey: newIdempotencyKey(),
      };
      this.#commit([...this.#items, upload]);
      void this.send(upload.id);
    }
  }

  /** Checks the file (first attempt) and sends it; a retry sends the same fields with the same Idempotency-Key. */
  async send(id: number): Promise<void> {
    const sending = this.#checkAndSend(id);
    this.#sending.add(sending);
    try {
      await sending;
    } finally {
      this.#sending.delete(sending);
    }
  }

  cancel(id: number): void {
    const upload = this.#items.find((u) => u.id === id);
    if (!upload) return;
    upload.abort?.abort();
    this.#commit(this.#items.filter((u) => u.id !== id));
    this.options.onDropped(upload, true);
  }

  remove(id: number): void {
    const upload = this.#items.find((u) => u.id === id);
    this.#commit(this.#items.filter((u) => u.id !== id));
    if (upload) this.options.onDropped(upload, false);
  }

  #patch(id: number, changes: Partial<Upload>): Upload | undefined {
    let updated: Upload | undefined;
    this.#commit(this.#items.map((u) => (u.id === id ? (updated = { ...u, ...changes }) : u)));
    return updated;
  }

  async #checkAndSend(id: number): Promise<void> {
    let upload = this.#items.find((u) => u.id === id);
    if (!upload || upload.state === 'uploading') return;
    const { error: _previous, ...rest } = upload;
    upload = { ...rest, state: 'checking', loaded: 0 };
    this.#commit(this.#items.map((u) => (u.id === id ? upload! : u)));
    const refusal = await checkFile(upload.file);
    if (refusal) {
      this.#patch(id, { state: 'refused', error: { kind: refusal } });
      return;
    }
    const abort = new AbortController();
    if (!this.#patch(id, { state: 'uploading', abort })) return; // removed meanwhile
    this.options.onSending(upload);
    const { apiBase, session, associatedPartyId } = this.options.target();
    const fields: [string, string][] = [['type', upload.type]];
    if (upload.side) fields.push(['side', upload.side]);
    if (upload.country) fields.push(['country', upload.country]);
    if (associatedPartyId) fields.push(['associatedPartyId', associatedPartyId]);
    try {
      const document = await uploadMultipart<Document>({
        url: joinUrl(apiBase, 'customer/documents'),
        session,
        idempotencyKey: upload.idempotencyKey,
        fields,
        file: upload.file,
        fileName: upload.file.name,
        signal: abort.signal,
        onProgress: ({ loaded, total }) => this.#patch(id, { loaded, total }),
      });
      this.#commit(this.#items.filter((u) => u.id !== id));
      this.options.onStored(document, upload);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const failure = failureOf(error);
      const { abort: _a, ...current } = this.#items.find((u) => u.id === id) ?? upload;
      this.#commit(this.#items.map((u) => (u.id === id ? { ...current, state: 'failed', error: failure } : u)));
    }
  }
}
