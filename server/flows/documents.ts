// Document upload: multipart streamed to the file store (never buffered), type recognised by its bytes, 50 MB enforced while streaming.
import { PassThrough, Readable } from 'node:stream';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_TYPES, IDENTITY_TYPES, MAX_DOCUMENT_BYTES } from '../../src/contract/kyc';
import { isAlpha3Country } from '../../src/contract/countries';
import { AppError, type FieldIssue, invalid } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import { newId } from '../ids';
import type { Db } from '../store/db';
import type { FileStore, StoredFile } from '../store/file-store';
import { listParties } from '../store/queries/associated-parties';
import { type CustomerRow, lockCustomer, updateCustomer } from '../store/queries/customers';
import { type DocumentRow, insertDocument } from '../store/queries/documents';
import { type FlowDeps, resumeIfCorrected, startVerification } from './verification';

/** Room for the multipart framing and the small fields around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;
const SNIFF_BYTES = 4100;

const Fields = z.object({
  type: z.enum(DOCUMENT_TYPES, { error: `must be one of ${DOCUMENT_TYPES.filter((t) => t !== 'SELFIE').join(', ')}` }),
  side: z.enum(['FRONT_SIDE', 'BACK_SIDE']).optional(),
  country: z.string().optional(),
  associatedPartyId: z.uuid().optional(),
});

interface Received {
  fields: Record<string, string>;
  file?: StoredFile & { fileName: string; contentType: (typeof DOCUMENT_CONTENT_TYPES)[number] };
}

class TooLarge extends Error {}
class NotAllowedType extends Error {}

/** Reads the multipart body; the file goes straight to `files`. Throws 413 / 415 / 400 problems. */
export async function receiveMultipart(req: Request, files: FileStore): Promise<Received> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;\s*boundary=/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload documents as multipart/form-data with the fields file, type, side, country and associatedPartyId.');
  }
  const length = Number(req.headers.get('content-length') ?? '0');
  if (length > MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD) throw tooLarge();
  if (!req.body) throw invalid([{ path: 'file', message: 'is required' }]);

  const parser = busboy({ headers: { 'content-type': type }, limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 10, fieldSize: 1024 } });
  const fields: Record<string, string> = {};
  let stored: Promise<Received['file']> | undefined;

  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    if (name !== 'file' || stored) {
      stream.resume();
      return;
    }
    stored = storeFile(stream, info.filename, files);
    stored.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  });

  const done = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', (err) => reject(invalid([{ path: '(body)', message: `is not valid multipart/form-data (${(err as Error).message})` }])));
  });
  Readable.fromWeb(req.body as import('node:stream/web').ReadableStream).pipe(parser);
  try {
    await done;
  } finally {
    // Even when the framing broke, wait for the file so that a failed write cleans up before we answer.
    await stored?.catch(() => undefined);
  }
  return { fields, file: await stored };
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `Documents are at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`);

async function storeFile(stream: Readable, fileName: string | undefined, files: FileStore): Promise<NonNullable<Received['file']>> {
  // Sniff the first bytes, then stream everything (sniffed bytes first) into the store.
  const head: Buffer[] = [];
  let headLength = 0;
  const body = new PassThrough();
  let contentType: string | undefined;
  let failure: Error | undefined;

  const sniffed = new Promise<void>((resolve) => {
    const onData = async (chunk: Buffer) => {
      head.push(chunk);
      headLength += chunk.length;
      if (headLength < SNIFF_BYTES) return;
      stream.pause();
      stream.off('data', onData);
      stream.off('end', onEnd);
      await decide();
      resolve();
    };
    const onEnd = async () => {
      stream.off('data', onData);
      await decide();
      resolve();
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
  });

  async function decide() {
    const detected = await fileTypeFromBuffer(Buffer.concat(head));
    contentType = detected?.mime;
    if (!contentType || !(DOCUMENT_CONTENT_TYPES as readonly string[]).includes(contentType)) {
      failure = new NotAllowedType();
      stream.resume();
      body.end();
      return;
    }
    body.write(Buffer.concat(head));
    if (stream.readableEnded) body.end();
    else stream.pipe(body);
  }

  stream.on('limit', () => {
    failure = new TooLarge();
    // Unpipe first: a destroyed destination would otherwise leave the source paused and the upload stalled.
    stream.unpipe(body);
    body.destroy(failure);
    stream.resume();
  });

  await sniffed;
  if (failure instanceof NotAllowedType) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not a JPG, PNG or PDF (recognised by its content, not its name).', {
      errors: [{ path: 'file', message: 'must be a JPG, PNG or PDF' }],
    });
  }
  try {
    const saved = await files.put(body);
    if (failure) throw failure;
    return { ...saved, fileName: (fileName || 'document').slice(0, 255), contentType: contentType as (typeof DOCUMENT_CONTENT_TYPES)[number] };
  } catch (err) {
    if (err instanceof TooLarge || failure instanceof TooLarge) throw tooLarge();
    throw err;
  }
}

/** Checks the upload's fields against the customer: type, side, country, party. */
export async function checkFields(tx: Db, c: CustomerRow, fields: Record<string, string>, opts: { allowSelfie: boolean }) {
  const parsed = Fields.safeParse(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
  const issues: FieldIssue[] = parsed.success ? [] : parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? '(body)'), message: i.code === 'invalid_type' ? 'is required' : i.message }));
  if (!parsed.success) throw invalid(issues);
  const f = parsed.data;
  if (f.type === 'SELFIE' && !opts.allowSelfie) issues.push({ path: 'type', message: 'SELFIE is taken on the hosted verification page (verification.link)' });
  const needsSide = f.type === 'ID_CARD' || f.type === 'DRIVERS_LICENSE';
  if (needsSide && !f.side) issues.push({ path: 'side', message: `is required for ${f.type}: upload FRONT_SIDE and BACK_SIDE separately` });
  if (!needsSide && f.side) issues.push({ path: 'side', message: 'applies only to ID_CARD and DRIVERS_LICENSE' });
  if (f.country !== undefined && !isAlpha3Country(f.country.toUpperCase())) issues.push({ path: 'country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA' });
  if (f.associatedPartyId) {
    const parties = await listParties(tx, c.partnerId, c.id);
    const party = parties.find((p) => p.id === f.associatedPartyId);
    if (!party) issues.push({ path: 'associatedPartyId', message: 'is not an associated party of this customer' });
    else if (party.type === 'INDIVIDUAL' && !(IDENTITY_TYPES as readonly string[]).includes(f.type) && f.type !== 'OTHER') {
      issues.push({ path: 'type', message: 'an individual party sends an identity document (ID_CARD, PASSPORT or DRIVERS_LICENSE)' });
    }
  }
  if (issues.length) throw invalid(issues);
  return f;
}

/** Before reading a byte of the file: the customer must exist, not be finally rejected, and have sent additional information. */
export function assertCanUpload(c: CustomerRow | undefined, opts: { selfie?: boolean } = {}): asserts c is CustomerRow {
  if (!c) throw new AppError('NOT_FOUND', 'Customer not found');
  assertWritable(c.verificationStatus);
  if (c.verificationStatus === 'APPROVED') throw new AppError('INVALID_STATE', 'This customer is already approved; no more documents are needed.');
  if (!opts.selfie && c.additionalInformation === null) {
    throw new AppError('INVALID_STATE', 'Send additional information (PATCH /customers/{id}/additional-information) before documents.', {
      extra: { missing: ['ADDITIONAL_INFORMATION'] },
    });
  }
}

/** Records an uploaded file as a document in one transaction, and lets verification start or resume when this completes it. */
export async function recordDocument(
  db: Db,
  deps: FlowDeps,
  partnerId: string,
  customerId: string,
  received: Received,
  opts: { allowSelfie: boolean },
): Promise<DocumentRow> {
  if (!received.file) throw invalid([{ path: 'file', message: 'is required' }]);
  const file = received.file;
  return db.transaction(async (tx) => {
    const c = await lockCustomer(tx, partnerId, customerId);
    assertCanUpload(c, { selfie: received.fields.type === 'SELFIE' });
    const f = await checkFields(tx, c, received.fields, opts);
    const now = deps.clock.now();
    const doc = await insertDocument(tx, {
      id: newId(),
      partnerId,
      customerId,
      associatedPartyId: f.associatedPartyId ?? null,
      type: f.type,
      side: f.side ?? null,
      country: f.country?.toUpperCase() ?? null,
      fileName: file.fileName,
      contentType: file.contentType,
      size: file.size,
      sha256: file.sha256,
      createdAt: now,
      updatedAt: now,
    });
    const touched = await updateCustomer(tx, partnerId, customerId, { updatedAt: now });
    if (touched.verificationStatus === 'TEMPORARY_REJECTION') await resumeIfCorrected(tx, deps, touched);
    else if (touched.type === 'INDIVIDUAL' && touched.livenessCompletedAt) await startVerification(tx, deps, touched, { explicit: false });
    return doc;
  });
}

/** Liveness done (a selfie on the hosted page, or the sandbox helper): individuals then start review by themselves. */
export async function completeLiveness(db: Db, deps: FlowDeps, partnerId: string, customerId: string): Promise<CustomerRow> {
  return db.transaction(async (tx) => {
    const c = await lockCustomer(tx, partnerId, customerId);
    if (!c) throw new AppError('NOT_FOUND', 'Customer not found');
    assertWritable(c.verificationStatus);
    const now = deps.clock.now();
    const updated = c.livenessCompletedAt ? c : await updateCustomer(tx, partnerId, customerId, { livenessCompletedAt: now, updatedAt: now });
    if (updated.type === 'INDIVIDUAL') await startVerification(tx, deps, updated, { explicit: false });
    return (await lockCustomer(tx, partnerId, customerId))!;
  });
}
