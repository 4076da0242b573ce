// End-to-end steps shared by the demo-page tests: create a customer in the onboarding form, and finish its KYC over the API when a test is about money.
import type { Page } from 'playwright-core';
import { taxIdEndingIn } from '../server/harness';
import { individualInfo, JPG, PDF } from '../server/kyc-helpers';
import type { RunningServer } from './support';

export async function createCustomerOnDemo(page: Page, server: RunningServer, cpf = taxIdEndingIn('cpf', 0)): Promise<string> {
  await page.goto(`${server.url}/?view=components`);
  await page.waitForSelector('#session-status[data-state="ready"]', { timeout: 20_000 });
  await page.click('ramp-onboarding [data-testid=type-INDIVIDUAL]');
  await page.fill('ramp-onboarding #name', 'Ana Souza');
  await page.locator('ramp-onboarding #taxId').pressSequentially(cpf);
  await page.fill('ramp-onboarding #birthDate', '1990-05-17');
  await page.click('ramp-onboarding [data-testid=submit]');
  await page.waitForSelector('#event-log li[data-event="ramp-customer-created"]', { timeout: 20_000 });
  const res = await fetch(`${server.url}/v2/customers?taxId=${cpf}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  const { data } = (await res.json()) as { data: { id: string }[] };
  return data[0]!.id;
}

async function api(server: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** What the partner's backend and the hosted page would do: information, documents, liveness, then approval by the sandbox. */
/** The address fields named `<prefix>-line1` … `<prefix>-postalCode` inside `o` (the country is each form's own). */
export async function fillAddress(page: Page, prefix: string, o = 'ramp-onboarding', address = { line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' }): Promise<void> {
  await page.fill(`${o} #${prefix}-line1`, address.line1);
  await page.fill(`${o} #${prefix}-city`, address.city);
  await page.fill(`${o} #${prefix}-state`, address.state);
  await page.fill(`${o} #${prefix}-postalCode`, address.postalCode);
}

/** The onboarding's additional-information step, filled as a Brazilian employee would; `o` is the onboarding's selector. */
export async function fillIndividualInformation(page: Page, o = 'ramp-onboarding'): Promise<void> {
  await page.fill(`${o} #info-phone`, '+5511987654321');
  await page.selectOption(`${o} #info-address-country`, 'BRA').catch(() => page.fill(`${o} #info-address-country`, 'BRA'));
  await fillAddress(page, 'info-address', o);
  await page.fill(`${o} #info-monthlyVolumeInUSD`, '2500');
  await page.fill(`${o} #info-transactionVolumeInUSD`, '500');
  await page.check(`${o} [data-testid=jurisdictions-BRA]`);
  await page.check(`${o} [data-testid=involvedActivities-NONE]`);
  await page.check(`${o} [data-testid=transactionCounterparties-SELF]`);
  await page.selectOption(`${o} #info-professionalSituation`, 'EMPLOYEE');
  await page.fill(`${o} #info-professionalOccupation`, 'Engineer');
  await page.selectOption(`${o} #info-sourceOfFunds`, 'EMPLOYMENT').catch(() => page.fill(`${o} #info-sourceOfFunds`, 'EMPLOYMENT'));
}

/** The off-ramp's new-account form, filled for a PIX key the customer holds (`SELF`); `press` is how a button is pressed. */
export async function fillSelfPixAccount(page: Page, cpf: string, press: 'click' | 'tap' = 'click'): Promise<void> {
  const hit = (selector: string) => (press === 'tap' ? page.tap(selector) : page.click(selector));
  await hit('#offramp [data-testid="add-account"]');
  await hit('#offramp [data-testid="rail-PIX"]');
  await page.fill('#offramp #bank-name', 'Minha conta');
  await page.selectOption('#offramp #bank-keyType', 'EVP');
  await page.fill('#offramp #bank-keyValue', '123e4567-e12b-42d3-a456-426614174000');
  await hit('#offramp [data-testid="holder-INDIVIDUAL"]');
  await page.selectOption('#offramp #bank-relationship', 'SELF');
  await page.fill('#offramp #bank-holderName', 'Ana Souza');
  // A SELF account's holder is the customer: the service refuses any other tax id.
  await page.locator('#offramp #bank-taxId').pressSequentially(cpf);
  await page.fill('#offramp #bank-line1', 'Av. Paulista, 1000');
  await page.fill('#offramp #bank-city', 'São Paulo');
  await page.fill('#offramp #bank-state', 'SP');
  await page.fill('#offramp #bank-postalCode', '01310-100');
}

export async function approveOverApi(server: RunningServer, customerId: string): Promise<void> {
  await api(server, 'PATCH', `/v2/customers/${customerId}/additional-information`, individualInfo());
  for (const [fields, bytes] of [
    [{ type: 'PASSPORT' }, JPG],
    [{ type: 'BANK_STATEMENT' }, PDF],
  ] as const) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array(bytes)]), 'doc');
    await api(server, 'POST', `/v2/customers/${customerId}/documents`, form);
  }
  await api(server, 'POST', `/v2/sandbox/customers/${customerId}/liveness`);
  // The sandbox's own reviewer decides after RAMP_SANDBOX_REVIEW_MS; on a loaded machine it may have approved before we ask.
  try {
    await api(server, 'POST', `/v2/sandbox/customers/${customerId}/review`, { outcome: 'APPROVED' });
  } catch (error) {
    const customer = await api(server, 'GET', `/v2/customers/${customerId}`);
    if (customer.verification?.status !== 'APPROVED') throw error;
  }
}

export const fund = (server: RunningServer, customerId: string, amount: string) =>
  api(server, 'POST', '/v2/sandbox/wallets/fund', { customerId, blockchain: 'POLYGON', stablecoin: 'USDC', amount });

export const readApi = (server: RunningServer, path: string) => api(server, 'GET', path);

/** An individual created and approved over the API, as the partner's backend and the sandbox review would. */
export async function approvedCustomerOverApi(server: RunningServer, name: string, birthDate: string): Promise<string> {
  const { id } = await api(server, 'POST', '/v2/customers', { type: 'INDIVIDUAL', name, taxId: taxIdEndingIn('cpf', 0), birthDate });
  await approveOverApi(server, id);
  return id as string;
}
