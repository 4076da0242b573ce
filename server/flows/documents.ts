// Documents: the upload rules (fields, order, per-customer quota) and recording a staged file as a document in one transaction.
import { issuesOf } from '../domain/zod-issues';
import { z } from 'zod';
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_TYPES, IDENTITY_TYPES, MAX_DOCUMENT_BYTES } from '../../src/contract/kyc';
import { isAlpha3Country } from '../../src/contract/countries';
import { Text } from '../../src/contract/common';
import { AppError, type FieldIssue, invalid, unknownReference } from '../domain/errors';
import { assertWritable } from '../domain/verification';
import { newId } from '../ids';
import { type Db, inTransaction } from '../store/db';
import type { Config } from '../config';
import type { FileStore, StagedFile } from '../store/file-store';
import { listParties } from '../store/queries/associated-parties';
import { type CustomerRow, getCustomer, lockCustomer, updateCustomer } from '../store/queries/customers';
import { type DocumentRow, documentUsage, insertDocument, isFileReferenced, listDocuments, lockFileHash, partnerDocumentBytes } from '../store/queries/documents';
import { type FlowDeps, resumeIfCorrected, startVerification } from './verification';

const Fields = z.object({
  type: z.enum(DOCUMENT_TYPES, { error: `must be one of ${DOCUMENT_TYPES.filter((t) => t !== 'SELFIE').join(', ')}` }),
  side: z.enum(['FRONT_SIDE', 'BACK_SIDE']).optional(),
  country: Text({ max: 100, trim: false }).optional(),
  associatedPartyId: z.uuid().optional(),
});

/**
 * The requirements DESIGN.md lists that no upload satisfies. Every other requirement is named by a document type, so
 * `type=<requirement name>` uploads it; these say where they are met instead.
 */
const NOT_A_DOCUMENT: Record<string, string> = {
  ADDITIONAL_INFORMATION: 'send it with PATCH /v2/customers/{id}/additional-information',
  ASSOCIATED_PARTIES: 'add the owners and directors with POST /v2/customers/{id}/associated-parties',
  LIVENESS: 'the customer takes a selfie on the hosted verification page (verification.link)',
};

type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** An upload as the multipart reader hands it over: the fields, and the file staged (not yet published) in the store. */
export interface Received {
  fields: Record<string, string>;
  file?: StagedFile & { fileName: string; contentType: DocumentContentType };
}

/** What the upload routes pass to the multipart reader: 50 MB (exactly 50 MiB is accepted), JPG, PNG or PDF by their bytes. */
export const documentUpload = {
  maxFileBytes: MAX_DOCUMENT_BYTES,
  contentTypes: DOCUMENT_CONTENT_TYPES,
  wrongType: { detail: 'The file is not a JPG, PNG or PDF (recognised by its content, not its name).', message: 'must be a JPG, PNG or PDF' },
};

export const selfieUpload = {
  maxFileBytes: MAX_DOCUMENT_BYTES,
  contentTypes: ['image/jpeg', 'image/png'] as const,
  wrongType: { detail: 'The selfie must be a JPG or PNG photo.', message: 'must be a JPG or PNG photo' },
};

export interface DocumentDeps extends FlowDeps {
  files: FileStore;
}

/** The per-customer and per-partner quotas; `adding` is the file about to be recorded (none before the body is read). */
async function assertQuota(tx: Db, config: Config, c: CustomerRow, adding?: { size: number }) {
  const used = await documentUsage(tx, c.partnerId, c.id);
  const limit = { documents: config.RAMP_MAX_DOCUMENTS_PER_CUSTOMER, bytes: config.RAMP_MAX_DOCUMENT_BYTES_PER_CUSTOMER };
  const full = adding ? used.documents + 1 > limit.documents || used.bytes + adding.size > limit.bytes : used.documents >= limit.documents || used.bytes >= limit.bytes;
  if (full) {
    throw new AppError(
      'DOCUMENT_QUOTA_EXCEEDED',
      `This customer has ${used.documents} documents of ${used.bytes} bytes; a customer keeps at most ${limit.documents} documents and ${limit.bytes} bytes.`,
      { extra: { limit, used } },
    );
  }
  const partnerBytes = await partnerDocumentBytes(tx, c.partnerId);
  const partnerLimit = config.RAMP_MAX_DOCUMENT_BYTES_PER_PARTNER;
  if (adding ? partnerBytes + adding.size > partnerLimit : partnerBytes >= partnerLimit) {
    throw new AppError('DOCUMENT_QUOTA_EXCEEDED', `This partner's documents take ${partnerBytes} bytes; a partner keeps at most ${partnerLimit} bytes of documents.`, {
      extra: { limit: { bytes: partnerLimit }, used: { bytes: partnerBytes }, scope: 'partner' },
    });
  }
}

/** Before reading a byte of the body: the customer can take a document and has room left in its quota. */
export async function assertCanReceive(db: Db, config: Config, c: CustomerRow | undefined, opts: { selfie?: boolean } = {}): Promise<void> {
  assertCanUpload(c, opts);
  await assertQuota(db, config, c);
}

/** `assertCanReceive` for the partner's customer by id (an unknown one is 404). */
export async function assertCustomerCanReceive(db: Db, config: Config, partnerId: string, customerId: string): Promise<void> {
  await assertCanReceive(db, config, await getCustomer(db, partnerId, customerId));
}

/** A customer's documents (its parties' included), oldest first. */
export const customerDocuments = (db: Db, c: Pick<CustomerRow, 'partnerId' | 'id'>): Promise<DocumentRow[]> => listDocuments(db, c.partnerId, c.id);

/** Checks the upload's fields against the customer: type, side, country, party. */
export async function checkFields(tx: Db, c: CustomerRow, fields: Record<string, string>, opts: { allowSelfie: boolean }) {
  const step = fields.type === undefined ? undefined : NOT_A_DOCUMENT[fields.type];
  if (step) throw invalid([{ path: 'type', message: `${fields.type} is a requirement met without a document: ${step}`, code: 'NOT_ALLOWED' }]);
  const input = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''));
  const parsed = Fields.safeParse(input);
  const issues: FieldIssue[] = parsed.success ? [] : issuesOf(parsed.error, 'form', input);
  if (!parsed.success) throw invalid(issues);
  const f = parsed.data;
  if (f.type === 'SELFIE' && !opts.allowSelfie) issues.push({ path: 'type', message: 'SELFIE is taken on the hosted verification page (verification.link)', code: 'NOT_ALLOWED' });
  const needsSide = f.type === 'ID_CARD' || f.type === 'DRIVERS_LICENSE';
  if (needsSide && !f.side) issues.push({ path: 'side', message: `is required for ${f.type}: upload FRONT_SIDE and BACK_SIDE separately`, code: 'REQUIRED' });
  // The spec sends `side` on every upload form; it means something only for two-sided documents and is ignored elsewhere (a PASSPORT has one page).
  if (!needsSide) delete f.side;
  if (f.country !== undefined && !isAlpha3Country(f.country.toUpperCase())) issues.push({ path: 'country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA', code: 'INVALID_COUNTRY' });
  if (f.associatedPartyId) {
    const parties = await listParties(tx, c.partnerId, c.id);
    const party = parties.find((p) => p.id === f.associatedPartyId);
    if (!party) throw unknownReference('associatedPartyId', 'associated party of this customer');
    else if (party.type === 'INDIVIDUAL' && !(IDENTITY_TYPES as readonly string[]).includes(f.type) && f.type !== 'OTHER') {
      issues.push({ path: 'type', message: 'an individual party sends an identity document (ID_CARD, PASSPORT or DRIVERS_LICENSE)', code: 'CONFLICTING_FIELDS' });
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

/**
 * Records an uploaded file as a document in one transaction, and lets verification start or resume when this completes it.
 * The staged file is published (moved to its content address) as the transaction's last step, under the file hash's lock, so a
 * document row never commits without its file; when the transaction fails after publishing, the file goes unless another
 * document names the same bytes. The caller removes the staged file afterwards in every case (`withUpload`).
 */
export async function recordDocument(
  db: Db,
  deps: DocumentDeps,
  partnerId: string,
  customerId: string,
  received: Received,
  opts: { allowSelfie: boolean },
): Promise<DocumentRow> {
  if (!received.file) throw invalid([{ path: 'file', message: 'is required', code: 'REQUIRED' }]);
  const file = received.file;
  let published = false;
  try {
    return await inTransaction(db, async (tx) => {
      const c = await lockCustomer(tx, partnerId, customerId);
      assertCanUpload(c, { selfie: received.fields.type === 'SELFIE' });
      const f = await checkFields(tx, c, received.fields, opts);
      await assertQuota(tx, deps.config, c, file);
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
      await lockFileHash(tx, file.sha256);
      published = true; // from here the file may be in place: if the transaction fails, it goes unless another document names it
      await deps.files.publish(file);
      return doc;
    });
  } catch (err) {
    if (published) await removeIfUnreferenced(db, deps.files, file.sha256).catch(() => undefined); // else the orphan sweep takes it
    throw err;
  }
}

/** Removes a published file that no document names, under the hash's lock (so an upload of the same bytes cannot interleave). */
export async function removeIfUnreferenced(db: Db, files: FileStore, sha256: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await lockFileHash(tx, sha256);
    if (await isFileReferenced(tx, sha256)) return false;
    await files.remove({ kind: 'file', key: sha256 });
    return true;
  });
}

/** Liveness done (a selfie on the hosted page, or the sandbox helper): individuals then start review by themselves. */
export async function completeLiveness(db: Db, deps: FlowDeps, partnerId: string, customerId: string): Promise<CustomerRow> {
  return inTransaction(db, async (tx) => {
    const c = await lockCustomer(tx, partnerId, customerId);
    if (!c) throw new AppError('NOT_FOUND', 'Customer not found');
    assertWritable(c.verificationStatus);
    const now = deps.clock.now();
    const updated = c.livenessCompletedAt ? c : await updateCustomer(tx, partnerId, customerId, { livenessCompletedAt: now, updatedAt: now });
    if (updated.type === 'INDIVIDUAL') await startVerification(tx, deps, updated, { explicit: false });
    return (await lockCustomer(tx, partnerId, customerId))!;
  });
}
