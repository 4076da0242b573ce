// /v2/customers/{id}/documents: upload one document (multipart, streamed, 50 MB) and list them.
import { createRoute, z } from '@hono/zod-openapi';
import { DocumentSchema, UploadDocumentSchema } from '../../src/contract/kyc';
import { assertCustomerCanReceive, customerDocuments, documentUpload, recordDocument } from '../flows/documents';
import { invalid } from '../domain/errors';
import { isUuid } from '../ids';
import { CustomerIdParam, findCustomer } from './customer-path';
import { idempotentUpload } from './idempotency';
import type { Deps } from '../deps';
import { withUpload } from './multipart';
import { openApiApp, problems } from './openapi-app';
import { presentDocument } from '../presenters';

const uploadDoc = createRoute({
  operationId: 'uploadDocument',
  method: 'post',
  path: '/customers/{id}/documents',
  tags: ['Verification'],
  summary: 'Upload one document',
  description:
    'multipart/form-data with `file` (JPG, PNG or PDF, recognised by its bytes; at most 50 MB), `type`, `side` (required for ID_CARD and DRIVERS_LICENSE: front and back are separate uploads; ignored on other types), `country` (alpha-3) and `associatedPartyId` for a party\'s document. Send the fields before the file. Additional information must be sent first (409 otherwise). A customer keeps at most 200 documents and 500 MB by default (409 `DOCUMENT_QUOTA_EXCEEDED`). After a TEMPORARY_REJECTION, uploading the corrected documents resumes review by itself. Every requirement but ADDITIONAL_INFORMATION, ASSOCIATED_PARTIES and LIVENESS is named by a document type and uploaded as `type=<name>`; those three are met elsewhere, and a 400 on `type` says where.',
  request: { params: CustomerIdParam },
  responses: {
    201: { description: 'The document record', content: { 'application/json': { schema: DocumentSchema } } },
    ...problems(400, 401, 404, 409, 413, 415, 507),
  },
});

const listDocs = createRoute({
  operationId: 'listDocuments',
  method: 'get',
  path: '/customers/{id}/documents',
  tags: ['Verification'],
  summary: "List a customer's documents, newest first",
  request: { params: CustomerIdParam },
  responses: {
    200: { description: 'The documents', content: { 'application/json': { schema: z.object({ data: z.array(DocumentSchema) }) } } },
    ...problems(401, 404),
  },
});

export function documentsApp(deps: Deps) {
  const app = openApiApp();
  // The body is documented here but read by hand: a form validator would buffer 50 MB.
  app.openAPIRegistry.registerPath({
    ...uploadDoc,
    request: { ...uploadDoc.request, body: { required: true, content: { 'multipart/form-data': { schema: UploadDocumentSchema } } } },
  });
  app.post('/customers/:id/documents', async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw invalid([{ path: 'id', message: 'must be a UUID', code: 'INVALID_FORMAT' }]);
    const partnerId = c.get('partnerId');
    // Refuse before reading the body when the answer cannot be yes.
    await assertCustomerCanReceive(c.var.db, deps.config, partnerId, id);
    return withUpload(c.req.raw, deps.files, documentUpload, (received) =>
      // The Idempotency-Key fingerprint is the file's sha256 (hashed while streaming) and the fields.
      idempotentUpload(c, { db: c.var.db, clock: deps.clock, answers: deps.tokens.idempotencyAnswers }, { sha256: received.file?.sha256, fields: received.fields }, async (db) => {
        const doc = await recordDocument(db, deps, partnerId, id, received, { allowSelfie: false });
        return c.json(presentDocument(doc), 201);
      }),
    );
  });
  return app
    .operation(listDocs, async (c) => {
      const { id } = c.req.valid('param');
      const row = await findCustomer(c.var.db, c.get('partnerId'), id);
      const docs = await customerDocuments(c.var.db, row);
      return c.json({ data: docs.map(presentDocument) }, 200);
    });
}
