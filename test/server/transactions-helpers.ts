// Fixtures for transaction tests: bank-account bodies per rail, running the sandbox until nothing more is due.
import { type client, type TestServer, taxIdEndingIn } from './harness';

export const holderAddress = { line1: 'Rua C, 3', city: 'São Paulo', state: 'SP', postalCode: '01000-000', country: 'BRA' };

export const pixAccount = (customerId: string, over: Record<string, unknown> = {}) => ({
  customerId,
  name: 'Conta Itaú',
  type: 'EXTERNAL',
  rail: 'PIX',
  currency: 'BRL',
  identifier: { keyType: 'EVP', keyValue: '123e4567-e12b-42d3-a456-426614174000' },
  holder: { type: 'INDIVIDUAL', relationship: 'RELATIVE', name: 'Ana Souza', taxId: taxIdEndingIn('cpf', 0), address: holderAddress },
  ...over,
});

/** The customer's own PIX account (SELF): the holder is the customer, with the customer's tax id, as the service requires. */
export async function selfPixAccount(api: ReturnType<typeof client>, customerId: string, over: Record<string, unknown> = {}) {
  const { body: customer } = await api.get(`/v2/customers/${customerId}`);
  const base = pixAccount(customerId);
  return { ...base, holder: { ...base.holder, relationship: 'SELF', name: customer.name, taxId: customer.taxId }, ...over };
}

export const sepaAccount = (customerId: string, over: Record<string, unknown> = {}) => ({
  customerId,
  name: 'Sparkasse',
  type: 'EXTERNAL',
  rail: 'SEPA',
  currency: 'EUR',
  identifier: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
  holder: { type: 'BUSINESS', relationship: 'EMPLOYEE', legalName: 'Supplier GmbH', taxId: 'DE123456789', address: { ...holderAddress, country: 'DEU' } },
  ...over,
});

export const swiftAccount = (customerId: string, over: Record<string, unknown> = {}) => ({
  customerId,
  name: 'Chase',
  type: 'EXTERNAL',
  rail: 'SWIFT',
  currency: 'USD',
  identifier: { accountNumber: '000123456789', bic: 'CHASUS33', bankName: 'JPMorgan Chase', bankCountry: 'USA' },
  holder: { type: 'INDIVIDUAL', relationship: 'RELATIVE', name: 'John Doe', taxId: '123456789', address: { ...holderAddress, country: 'USA' } },
  ...over,
});

/** Advances the sandbox clock a second at a time until no job is due any more (every delay has passed). */
export async function settle(server: TestServer, maxSeconds = 120): Promise<void> {
  let idle = 0;
  for (let s = 0; s < maxSeconds && idle < 3; s++) idle = (await server.advance(1)) === 0 ? idle + 1 : 0;
}
