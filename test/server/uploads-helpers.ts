// Fixtures for upload tests: the app on a real socket, the three upload routes for one customer, raw multipart bodies, the store's contents.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serve } from '@hono/node-server';
import { serverOptions } from '../../server/http/batched-response';
import type { FileStore } from '../../server/store/file-store';
import { client, individual, type TestServer } from './harness';
import { individualInfo, PDF } from './kyc-helpers';

/** Serves the test app on 127.0.0.1 with a real HTTP server (so sockets, keep-alive and aborts are real). */
export async function listen(server: TestServer): Promise<{ port: number; base: string; close(): Promise<void> }> {
  const http = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions });
  await new Promise<void>((resolve) => (http.listening ? resolve() : http.once('listening', () => resolve())));
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (http as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        http.close(() => resolve());
      }),
  };
}

export interface UploadTarget {
  route: '/v2' | '/bff' | '/verify/api';
  path: string;
  token: string;
}

/** A customer of the bootstrap partner (the one the BFF serves), ready for documents, and the three routes that upload for it. */
export async function uploadTargets(server: TestServer): Promise<{ customerId: string; targets: UploadTarget[] }> {
  const session = await client(server, server.apiKey).post('/v2/widget-sessions', {});
  assert.equal(session.status, 201, session.text);
  const created = await client(server, session.body.token).post('/bff/customers', individual());
  assert.equal(created.status, 201, created.text);
  const token = created.body.session.token as string;
  const customerId = created.body.customer.id as string;
  const info = await client(server, token).patch('/bff/customer/additional-information', individualInfo());
  assert.equal(info.status, 200, info.text);
  const link = (await client(server, token).get('/bff/customer')).body.verification.link as string;
  return {
    customerId,
    targets: [
      { route: '/v2', path: `/v2/customers/${customerId}/documents`, token: server.apiKey },
      { route: '/bff', path: '/bff/customer/documents', token },
      { route: '/verify/api', path: '/verify/api/customer/documents', token: new URL(link).pathname.split('/')[2]! },
    ],
  };
}

/** A PDF of `size` bytes whose bytes differ from every other one made here (so each has its own hash). */
export function pdfOfSize(size: number): Buffer {
  const buf = Buffer.alloc(Math.max(size, PDF.length));
  PDF.copy(buf);
  randomBytes(Math.min(64, buf.length - PDF.length)).copy(buf, PDF.length);
  return buf;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A multipart/form-data body with the fields first and then `file`. */
export function multipartBody(fields: Record<string, string>, file: Buffer, boundary = `----ramp${randomBytes(8).toString('hex')}`) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads over the app in-process (no socket). */
export async function uploadTo(server: TestServer, target: UploadTarget, fields: Record<string, string>, file: Buffer) {
  const { body, contentType } = multipartBody(fields, file);
  const res = await server.app.request(target.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, text };
}

/**
 * Sends the request line, the headers (declaring the whole body) and the first `cut` bytes of the body on a raw socket, waits
 * `delayMs`, then destroys the socket. Resolves once the socket is gone; never rejects.
 */
export function abortedUpload(port: number, target: UploadTarget, body: Buffer, contentType: string, cut: number, delayMs = 20) {
  return new Promise<void>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      socket.write(
        `POST ${target.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${target.token}\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, cut), () => {
        setTimeout(() => socket.destroy(), delayMs);
      });
    });
  });
}

/** Everything the store holds, published files and temporaries. */
export async function storeEntries(files: FileStore): Promise<{ files: string[]; temps: string[] }> {
  const out = { files: [] as string[], temps: [] as string[] };
  for await (const e of files.list()) (e.kind === 'file' ? out.files : out.temps).push(e.key);
  return { files: out.files.sort(), temps: out.temps.sort() };
}

/** Waits until `check` holds (polling), or fails with the last value seen. */
export async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (check(v)) return v;
    if (Date.now() > until) assert.fail(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
