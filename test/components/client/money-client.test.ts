// The BFF client's money calls: paths, page parameters only when given, DELETE answered 204, problems typed.
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { createBffClient, ProblemError } from '../../../src/client/bff-client';
import { RequestLog, transactionProblem } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';

const page = { data: [], pagination: { size: 10, hasNextPage: false, hasPreviousPage: false, nextCursor: null, previousCursor: null } };

describe('BFF client, money', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  it('list calls send size and cursor only when given, never "undefined"', async () => {
    const log = new RequestLog();
    worker.use(
      http.get('*/bff/transactions', async ({ request }) => (await log.record(request), HttpResponse.json(page))),
      http.get('*/bff/bank-accounts', async ({ request }) => (await log.record(request), HttpResponse.json(page))),
    );
    const client = createBffClient({ apiBase: '/bff', session: () => 's' });
    await client.listTransactions();
    await client.listBankAccounts({ size: 10, cursor: 'n:abc' });
    await client.listBankAccounts({ size: 5, cursor: undefined });
    expect(log.entries.map((e) => new URL(e.url).search)).to.deep.equal(['', '?size=10&cursor=n%3Aabc', '?size=5']);
  });

  it('deleting a bank account resolves on 204 and sends the session', async () => {
    const log = new RequestLog();
    worker.use(http.delete('*/bff/bank-accounts/:id', async ({ request }) => (await log.record(request), new HttpResponse(null, { status: 204 }))));
    const client = createBffClient({ apiBase: '/bff', session: () => 's' });
    expect(await client.deleteBankAccount('acc/1')).to.equal(undefined);
    expect(log.last!.method).to.equal('DELETE');
    expect(new URL(log.last!.url).pathname).to.equal('/bff/bank-accounts/acc%2F1');
    expect(log.last!.headers.authorization).to.equal('Bearer s');
  });

  it('a refused transaction is a ProblemError with its extension members', async () => {
    worker.use(transactionProblem('off-ramp', 422, 'INSUFFICIENT_BALANCE', 'Not enough USDC on BASE.', { asset: 'USDC', blockchain: 'BASE' }));
    const client = createBffClient({ apiBase: '/bff', session: () => 's' });
    try {
      await client.createOffRamp({ bankAccountId: 'b', purpose: 'BILLS', exchangeRateId: 'q' }, { idempotencyKey: 'k' });
      expect.fail('should be refused');
    } catch (error) {
      expect(error).to.be.instanceOf(ProblemError);
      expect((error as ProblemError).code).to.equal('INSUFFICIENT_BALANCE');
      expect((error as ProblemError).problem.asset).to.equal('USDC');
    }
  });
});
