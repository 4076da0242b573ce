// The one multipart reader of every upload route (/v2 documents, /bff documents through /v2, the hosted page's documents and selfie).
// The body streams through busboy into a staged file of the store: type recognised by its bytes, size enforced while streaming.
// Every stream has its error handled, so an aborted or broken body rejects this request and nothing else: the process never
// sees an unhandled 'error'. Whatever ends the request, a staged file that was not published is removed.
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { cleanFileName } from '../../src/contract/text';
import { AppError, invalid } from '../domain/errors';
import type { FileStore, StagedFile } from '../store/file-store';

/** Room for the multipart framing and the small fields around a file of the maximum size. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const SNIFF_BYTES = 4100;

export interface UploadOptions<T extends string> {
  /** The largest file accepted, in bytes (a file of exactly this size is accepted). */
  maxFileBytes: number;
  /** Content types accepted, recognised by the bytes (never by the name or the declared type). */
  contentTypes: readonly T[];
  /** The 415 problem when the bytes are of another type. */
  wrongType: { detail: string; message: string };
}

export interface ReceivedUpload<T extends string = string> {
  fields: Record<string, string>;
  /** Absent when the body had no `file` part. Staged only: publish it or let `withUpload` discard it. */
  file?: StagedFile & { fileName: string; contentType: T };
}

/** The body broke (client gone, connection reset) while the file was streaming; the parser reports it. */
class BodyFailed extends Error {}

const noop = () => {};

/**
 * Reads the multipart body of `req`; the file goes to a staged file of `files`. Throws 400 / 413 / 415 problems,
 * and a 400 when the body ends early or its framing is broken. On any failure the staged file is already gone.
 */
export async function receiveUpload<T extends string>(req: Request, files: FileStore, opts: UploadOptions<T>): Promise<ReceivedUpload<T>> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;\s*boundary=/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload documents as multipart/form-data with the fields file, type, side, country and associatedPartyId.');
  }
  const length = Number(req.headers.get('content-length') ?? '0');
  if (length > opts.maxFileBytes + MULTIPART_OVERHEAD) throw tooLarge(opts.maxFileBytes);
  if (!req.body) throw invalid([{ path: 'file', message: 'is required', code: 'REQUIRED' }]);

  // fileSize one over the maximum: busboy reports its limit when the count *reaches* it, and a file of exactly the maximum is fine.
  const parser = busboy({ headers: { 'content-type': type }, limits: { fileSize: opts.maxFileBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 20 } });
  const source = Readable.fromWeb(req.body as WebReadableStream);
  // pipeline handles both while it runs; these keep a late error (after it settled) from reaching the process.
  parser.on('error', noop);
  source.on('error', noop);

  const fields: Record<string, string> = {};
  let staging: Promise<NonNullable<ReceivedUpload<T>['file']>> | undefined;
  let refusal: unknown;
  const stop = new AbortController();
  const refuse = (err: unknown) => {
    refusal ??= err;
    stop.abort();
  };

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) refuse(invalid([{ path: name, message: 'is too long', code: 'TOO_LONG' }]));
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    // busboy destroys an unfinished file stream with the body's error: without a listener that error would end the process.
    stream.on('error', noop);
    // busboy stops the file one byte over the maximum; the check below refuses it, and this guards a truncation it would miss.
    // Deferred: busboy still touches the stream after emitting, and refusing destroys it.
    stream.on('limit', () => queueMicrotask(() => refuse(tooLarge(opts.maxFileBytes))));
    if (name !== 'file' || staging) {
      stream.resume();
      return;
    }
    staging = stageFile(stream, info.filename, files, opts);
    staging.catch((err) => {
      if (!(err instanceof BodyFailed)) refuse(err);
    });
  });

  try {
    await pipeline(source, parser, { signal: stop.signal });
    const file = await staging;
    if (refusal) throw refusal;
    return { fields, file };
  } catch (err) {
    stop.abort();
    const staged = await staging?.catch(() => undefined);
    if (staged) await files.discard(staged);
    if (refusal) throw refusal;
    if (err instanceof AppError) throw err;
    throw invalid([{ path: '(body)', message: `is not a complete multipart/form-data body (${(err as Error).message || 'ended early'})`, code: 'INVALID_BODY' }]);
  }
}

/**
 * Receives an upload, hands it to `use`, and removes the staged file afterwards whatever happened: `use` publishes what it keeps
 * (publishing moves the staged file, so the removal finds nothing), and a refused or failed upload keeps no bytes.
 */
export async function withUpload<T extends string, R>(req: Request, files: FileStore, opts: UploadOptions<T>, use: (upload: ReceivedUpload<T>) => Promise<R>): Promise<R> {
  const upload = await receiveUpload(req, files, opts);
  try {
    return await use(upload);
  } finally {
    if (upload.file) await files.discard(upload.file);
  }
}

const tooLarge = (max: number) => new AppError('PAYLOAD_TOO_LARGE', `Documents are at most ${max / 1024 / 1024} MB.`, { errors: [{ path: 'file', message: `must be at most ${max} bytes`, code: 'TOO_LARGE' }] });

/** Streams one file part into a staged file, checking its type on the first bytes and its size on every chunk. */
async function stageFile<T extends string>(stream: Readable, fileName: string | undefined, files: FileStore, opts: UploadOptions<T>) {
  const check = new FileCheck(opts);
  check.on('error', noop); // the store's pipeline reports it; until it is attached (the store may first await), this one listens
  // pipe, not pipeline: busboy owns its file stream. A body error reaches the check as BodyFailed.
  stream.on('error', (err) => check.destroy(new BodyFailed(err.message)));
  stream.pipe(check);
  const staged = await files.stage(check);
  return { ...staged, fileName: cleanFileName(fileName), contentType: check.contentType as T };
}

class FileCheck extends Transform {
  contentType: string | undefined;
  private head: Buffer[] = [];
  private headLength = 0;
  private size = 0;
  private decided = false;

  constructor(private readonly opts: UploadOptions<string>) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.opts.maxFileBytes) return cb(tooLarge(this.opts.maxFileBytes));
    if (this.decided) return cb(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return cb();
    this.decide().then(() => cb(), cb);
  }

  override _flush(cb: TransformCallback): void {
    if (this.decided) return cb();
    this.decide().then(() => cb(), cb);
  }

  private async decide(): Promise<void> {
    this.decided = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    const detected = await fileTypeFromBuffer(head);
    if (!detected || !(this.opts.contentTypes as readonly string[]).includes(detected.mime)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', this.opts.wrongType.detail, { errors: [{ path: 'file', message: this.opts.wrongType.message, code: 'INVALID_FORMAT' }] });
    }
    this.contentType = detected.mime;
    this.push(head);
  }
}
