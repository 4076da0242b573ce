// The BFF client: bearer session and Idempotency-Key on the wire, problems as typed ProblemError, no answer as NetworkError.
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { createBffClient, NetworkError, ProblemError } from '../../../src/client/bff-client';
import type { CreateCustomerRequest } from '../../../src/contract/customers';
import { bffScenarios, createCustomerInvalid, mockIds, RequestLog } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';

const body: CreateCustomerRequest = { type: 'INDIVIDUAL', name: 'Ana Souza', taxId: '52998224725', birthDate: '1990-05-17' };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('BFF client', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  it('sends the session as a bearer token, the Idempotency-Key and the JSON body', async () => {
    const log = new RequestLog();
    worker.use(...bffScenarios.success({ log }));
    const client = createBffClient({ apiBase: '/bff', session: () => 'session-token' });
    const created = await client.createCustomer(body, { idempotencyKey: 'key-1' });
    expect(created.customer.id).to.equal(mockIds.customer);
    expect(created.session.customerId).to.equal(mockIds.customer);
    expect(log.entries).to.have.length(1);
    expect(log.last!.url).to.equal(new URL('/bff/customers', location.href).href);
    expect(log.last!.headers).to.include({ authorization: 'Bearer session-token', 'idempotency-key': 'key-1', 'content-type': 'application/json' });
    expect(log.last!.body).to.deep.equal(body);
  });

  it('reads the session at each call, so a component can switch tokens', async () => {
    const log = new RequestLog();
    worker.use(...bffScenarios.success({ log }));
    let token = 'first';
    const client = createBffClient({ apiBase: '/bff', session: () => token });
    await client.createCustomer(body, { idempotencyKey: 'a' });
    token = 'second';
    await client.createCustomer(body, { idempotencyKey: 'b' });
    expect(log.entries.map((e) => e.headers.authorization)).to.deep.equal(['Bearer first', 'Bearer second']);
  });

  it('a problem+json answer becomes a ProblemError with status, code, detail, errors and requestId', async () => {
    worker.use(createCustomerInvalid([{ path: 'birthDate', message: 'must not be in the future', code: 'FUTURE_DATE' }]));
    const error = await rejection(createBffClient({ apiBase: '/bff', session: () => 't' }).createCustomer(body, { idempotencyKey: 'k' }));
    expect(error).to.be.instanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).to.equal(400);
    expect(problem.code).to.equal('VALIDATION_FAILED');
    expect(problem.detail).to.equal('birthDate: must not be in the future');
    expect(problem.errors).to.deep.equal([{ pointer: '/birthDate', path: 'birthDate', message: 'must not be in the future', code: 'FUTURE_DATE' }]);
    expect(problem.requestId).to.equal('req_mock');
  });

  it('extension members of a problem stay readable', async () => {
    worker.use(
      http.post('*/bff/customers', () =>
        HttpResponse.json({ status: 409, code: 'CONFLICT', title: 'Conflict', existingCustomerId: mockIds.existingCustomer }, { status: 409, headers: { 'content-type': 'application/problem+json' } }),
      ),
    );
    const error = (await rejection(createBffClient({ apiBase: '/bff', session: () => 't' }).createCustomer(body, { idempotencyKey: 'k' }))) as ProblemError;
    expect(error.status).to.equal(409);
    expect(error.code).to.equal('CONFLICT');
    expect(error.problem.existingCustomerId).to.equal(mockIds.existingCustomer);
  });

  it('an error answer without a problem body still gets a code from its status', async () => {
    worker.use(http.post('*/bff/customers', () => new HttpResponse('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } })));
    const client = createBffClient({ apiBase: '/bff', session: () => 't', retries: 0 });
    const error = (await rejection(client.createCustomer(body, { idempotencyKey: 'k' }))) as ProblemError;
    expect(error).to.be.instanceOf(ProblemError);
    expect([error.status, error.code]).to.deep.equal([502, 'SERVER_ERROR']);
    worker.use(http.post('*/bff/customers', () => new HttpResponse(null, { status: 401 })));
    const unauthenticated = (await rejection(client.createCustomer(body, { idempotencyKey: 'k' }))) as ProblemError;
    expect(unauthenticated.code).to.equal('UNAUTHENTICATED');
  });

  it('no answer at all is a NetworkError, distinct from a problem', async () => {
    worker.use(...bffScenarios.offline());
    const error = await rejection(createBffClient({ apiBase: '/bff', session: () => 't', retries: 0 }).createCustomer(body, { idempotencyKey: 'k' }));
    expect(error).to.be.instanceOf(NetworkError);
    expect(error).not.to.be.instanceOf(ProblemError);
    expect((error as NetworkError).reason).to.equal('unreachable');
  });

  it('a server slower than the timeout is a NetworkError("timeout")', async () => {
    worker.use(...bffScenarios.slow({ delayMs: 1_000 }));
    const client = createBffClient({ apiBase: '/bff', session: () => 't', retries: 0, timeout: 100 });
    const error = (await rejection(client.createCustomer(body, { idempotencyKey: 'k' }))) as NetworkError;
    expect(error).to.be.instanceOf(NetworkError);
    expect(error.reason).to.equal('timeout');
  });

  it('a write lost on the network is retried automatically with the same Idempotency-Key', async () => {
    const log = new RequestLog();
    worker.use(...bffScenarios.flaky(1, { log }));
    const created = await createBffClient({ apiBase: '/bff', session: () => 't', retries: 1 }).createCustomer(body, { idempotencyKey: 'same' });
    expect(created.customer.id).to.equal(mockIds.customer);
    expect(log.entries.map((e) => e.headers['idempotency-key'])).to.deep.equal(['same', 'same']);
  });

  it('a 401 asks renewSession for a new token and sends the refused request once more with it', async () => {
    worker.use(
      http.get('/bff/session', ({ request }) =>
        request.headers.get('authorization') === 'Bearer fresh'
          ? HttpResponse.json({ customerId: null, expiresAt: '2030-01-01T00:00:00Z' })
          : HttpResponse.json({ status: 401, code: 'UNAUTHENTICATED' }, { status: 401, headers: { 'content-type': 'application/problem+json' } }),
      ),
    );
    let token = 'stale';
    let renewals = 0;
    const client = createBffClient({ apiBase: '/bff', session: () => token, renewSession: async () => ((renewals += 1), (token = 'fresh'), true) });
    expect((await client.getSession()).customerId).to.equal(null);
    expect(renewals).to.equal(1);

    // No renewal (or a refused one): the call fails as UNAUTHENTICATED, once.
    token = 'stale';
    const refused = createBffClient({ apiBase: '/bff', session: () => token, renewSession: async () => ((renewals += 1), false) });
    const error = (await rejection(refused.getSession())) as ProblemError;
    expect(error.code).to.equal('UNAUTHENTICATED');
    expect(renewals).to.equal(2);
  });
});
