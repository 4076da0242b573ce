// Multipart uploads over XHR and the KYC calls of the BFF client: fields before the file, bearer and key on the wire, typed failures.
import { expect } from '@open-wc/testing';
import { delay, http, HttpResponse } from 'msw';
import { createBffClient, NetworkError, ProblemError } from '../../../src/client/bff-client';
import { joinUrl, uploadMultipart } from '../../../src/client/upload';
import { KycBackend, kycCustomer, problemResponse, RequestLog, sampleFiles } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('uploads and KYC calls', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  it('joins a base and a path whatever the slashes', () => {
    expect(joinUrl('/bff', 'customer/documents')).to.equal('/bff/customer/documents');
    expect(joinUrl('https://ramp.example/verify/api/', '/customer/liveness')).to.equal('https://ramp.example/verify/api/customer/liveness');
  });

  it('sends the text fields in order and the file last, with the bearer token and the Idempotency-Key', async () => {
    let seen: { auth: string | null; key: string | null; names: string[]; file?: File } = { auth: null, key: null, names: [] };
    worker.use(
      http.post('*/bff/customer/documents', async ({ request }) => {
        const form = await request.formData();
        seen = { auth: request.headers.get('authorization'), key: request.headers.get('idempotency-key'), names: [...form.keys()], file: form.get('file') as File };
        return HttpResponse.json({ id: 'd1' }, { status: 201 });
      }),
    );
    const answer = await uploadMultipart<{ id: string }>({
      url: '/bff/customer/documents',
      session: 'tok',
      idempotencyKey: 'key-1',
      fields: [['type', 'ID_CARD'], ['side', 'FRONT_SIDE'], ['associatedPartyId', 'p1']],
      file: sampleFiles.jpg('front.jpg'),
      fileName: 'front.jpg',
    });
    expect(answer).to.deep.equal({ id: 'd1' });
    expect(seen.auth).to.equal('Bearer tok');
    expect(seen.key).to.equal('key-1');
    expect(seen.names).to.deep.equal(['type', 'side', 'associatedPartyId', 'file']);
    expect(seen.file?.name).to.equal('front.jpg');
  });

  it('a problem answer is a ProblemError; no answer is a NetworkError; an abort is an AbortError', async () => {
    worker.use(http.post('*/bff/p', () => problemResponse(413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 50 MB.')));
    worker.use(http.post('*/bff/n', () => HttpResponse.error()));
    worker.use(
      http.post('*/bff/slow', async () => {
        await delay(2000);
        return HttpResponse.json({});
      }),
    );
    const base = { session: 't', idempotencyKey: 'k', file: sampleFiles.pdf(), fileName: 'a.pdf' };
    const problem = await rejection(uploadMultipart({ ...base, url: '/bff/p' }));
    expect(problem).to.be.instanceOf(ProblemError);
    expect([(problem as ProblemError).status, (problem as ProblemError).code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
    expect(await rejection(uploadMultipart({ ...base, url: '/bff/n' }))).to.be.instanceOf(NetworkError);
    const abort = new AbortController();
    const pending = uploadMultipart({ ...base, url: '/bff/slow', signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 100)); // at the server, waiting: the cancel is the user's
    abort.abort();
    const aborted = (await rejection(pending)) as DOMException;
    expect(aborted.name).to.equal('AbortError');
  });

  it('the KYC reads and writes go to the session’s customer routes, writes with their Idempotency-Key', async () => {
    const log = new RequestLog();
    const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS' }), log });
    worker.use(...backend.handlers());
    const client = createBffClient({ apiBase: '/bff', session: () => 'tok' });
    expect((await client.getCustomer()).id).to.equal(backend.customer!.id);
    expect((await client.listDocuments()).data).to.deep.equal([]);
    expect((await client.listAssociatedParties()).data).to.deep.equal([]);
    const refused = (await rejection(client.startVerification({ idempotencyKey: 'v1' }))) as ProblemError;
    expect(refused.status).to.equal(409);
    expect(refused.problem.missing).to.deep.equal(['ADDITIONAL_INFORMATION', 'INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY', 'ASSOCIATED_PARTIES']);
    expect((await client.listVerifications()).data).to.deep.equal([]);
    expect(log.entries.map((e) => `${e.method} ${new URL(e.url).pathname}`)).to.deep.equal([
      'GET /bff/customer',
      'GET /bff/customer/documents',
      'GET /bff/customer/associated-parties',
      'POST /bff/customer/verifications',
      'GET /bff/customer/verifications',
    ]);
    expect(log.entries[3]!.headers['idempotency-key']).to.equal('v1');
    expect(log.entries.every((e) => e.headers.authorization === 'Bearer tok')).to.equal(true);
  });
});
