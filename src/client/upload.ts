// Multipart uploads over XMLHttpRequest: fetch cannot report upload progress, XHR's `upload.onprogress` can.
import { NetworkError, ProblemError } from './problem';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface MultipartUpload {
  /** Absolute or page-relative URL, e.g. `/bff/customer/documents`. */
  url: string;
  /** The widget-session (or verification-link) token, sent as a bearer token. */
  session: string | undefined;
  /** Reused by every retry of the same upload, so the server stores the document at most once. */
  idempotencyKey: string;
  /**
   * Text fields, sent in this order and BEFORE the file: the server streams the file to storage as it arrives and must
   * already know its type, side and party when the file part begins.
   */
  fields?: ReadonlyArray<readonly [name: string, value: string]>;
  file: Blob;
  fileName: string;
  /** The multipart name of the file part. */
  fileField?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Milliseconds without completion before the upload fails with `NetworkError('timeout')`; 0 waits forever. */
  timeout?: number;
}

/** `/bff` + `customer/documents` → `/bff/customer/documents`, whatever slashes the base ends with. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * Sends one multipart/form-data POST and resolves with the parsed JSON answer. Rejects with `ProblemError` when the
 * server answers an error status, `NetworkError` when no answer came, and an `AbortError` DOMException when `signal`
 * aborted it. The XMLHttpRequest is created at call time, so tests can drive a stand-in.
 */
export function uploadMultipart<T>(upload: MultipartUpload): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (upload.signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const body = new FormData();
    for (const [name, value] of upload.fields ?? []) body.append(name, value);
    body.append(upload.fileField ?? 'file', upload.file, upload.fileName);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', upload.url);
    xhr.responseType = 'text';
    xhr.timeout = upload.timeout ?? 0;
    xhr.setRequestHeader('accept', 'application/json, application/problem+json');
    xhr.setRequestHeader('idempotency-key', upload.idempotencyKey);
    if (upload.session) xhr.setRequestHeader('authorization', `Bearer ${upload.session}`);

    const onAbort = () => xhr.abort();
    upload.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => upload.signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event: ProgressEvent) => {
      if (event.lengthComputable) upload.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      settle();
      const parsed = parseJson(xhr.responseText, xhr.getResponseHeader('content-type'));
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      // Status 0 with a load event does not happen in browsers, but a stand-in may report it: treat it as no answer.
      else if (xhr.status === 0) reject(new NetworkError('unreachable'));
      else reject(new ProblemError(xhr.status, parsed, xhr.statusText));
    };
    xhr.onerror = () => {
      settle();
      reject(new NetworkError('unreachable'));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new NetworkError('timeout'));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.send(body);
  });
}

function parseJson(text: string, contentType: string | null): unknown {
  if (!text || !/\bjson\b/i.test(contentType ?? '')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
