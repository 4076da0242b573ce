// Idempotency keys for POSTs: one per distinct request body, reused while the same body is retried, so a retry never makes a second resource.

/** A random UUID v4; `crypto.randomUUID` only exists in secure contexts, so fall back to `getRandomValues` on plain-http pages. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Remembers the key of the last attempt: asking again for the same body (a retry, a double click) gives the same key;
 * a changed body starts a new attempt with a new key.
 */
export class IdempotencyKeys {
  #fingerprint: string | undefined;
  #key = '';

  constructor(private readonly make: () => string = newIdempotencyKey) {}

  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (fingerprint !== this.#fingerprint) {
      this.#fingerprint = fingerprint;
      this.#key = this.make();
    }
    return this.#key;
  }

  /** After success: the next submission is a new attempt even with equal data. */
  reset(): void {
    this.#fingerprint = undefined;
  }
}
