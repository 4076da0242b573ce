// A stand-in XMLHttpRequest a test drives by hand: upload progress, the answer, a network failure. msw cannot fake upload progress.

export class FakeXhr {
  static instances: FakeXhr[] = [];

  method = '';
  url = '';
  body: FormData | undefined;
  readonly headers: Record<string, string> = {};
  responseType = '';
  timeout = 0;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  private responseHeaders: Record<string, string> = {};
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: FormData): void {
    this.body = body;
    FakeXhr.instances.push(this);
  }

  abort(): void {
    this.aborted = true;
    this.onabort?.();
  }

  // ── the test's side ──

  progress(loaded: number, total: number): void {
    this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }

  respond(status: number, body: unknown, contentType = status < 400 ? 'application/json' : 'application/problem+json'): void {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.responseHeaders = { 'content-type': contentType };
    this.onload?.();
  }

  failNetwork(): void {
    this.onerror?.();
  }
}

/** Replaces the page's XMLHttpRequest until the returned function is called. */
export function installFakeXhr(): () => void {
  const original = window.XMLHttpRequest;
  FakeXhr.instances = [];
  (window as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  return () => {
    window.XMLHttpRequest = original;
  };
}
