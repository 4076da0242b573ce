// Fixtures for KYC tests: real file bytes, the additional-information records, uploads as multipart over the app.
import { client, individual, newPartner, type TestServer, taxIdEndingIn } from './harness';

type Api = ReturnType<typeof client>;

/** A real 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
export const JPG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffd9', 'hex');

export const individualInfo = (over: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL',
  phone: '+5511987654321',
  firstName: 'Ana',
  middleName: '',
  lastName: 'Souza',
  address: { country: 'BRA', line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
  monthlyVolumeInUSD: '2500.00',
  transactionVolumeInUSD: '500.00',
  jurisdictions: ['BRA'],
  involvedActivities: ['NONE'],
  transactionCounterparties: ['SELF'],
  professionalSituation: 'EMPLOYEE',
  professionalOccupation: 'Engineer',
  sourceOfFunds: 'EMPLOYMENT',
  ...over,
});

export const businessInfo = (over: Record<string, unknown> = {}) => ({
  type: 'BUSINESS',
  phone: '+551130000000',
  address: { country: 'BRA', line1: 'Rua Funchal, 418', city: 'São Paulo', state: 'SP', postalCode: '04551-060' },
  monthlyVolumeInUSD: '250000.00',
  transactionVolumeInUSD: '20000.00',
  jurisdictions: ['BRA', 'USA'],
  involvedActivities: ['NONE'],
  transactionCounterparties: ['MERCHANTS_SUPPLIERS'],
  companyType: 'PAYMENT_GATEWAY',
  annualRevenue: '3000000.00',
  monthlyTransactionVolume: '250000.00',
  complianceAndAML: 'KYC on every merchant, transaction monitoring, sanctions screening.',
  isRegulatedActivity: false,
  regulatedActivityDetails: '',
  website: 'https://acme.example',
  sourceOfFunds: 'COMPANY',
  servicesProvided: 'Payment processing for online shops.',
  ...over,
});

export const address = { country: 'BRA', line1: 'Rua A, 1', city: 'São Paulo', state: 'SP', postalCode: '01000-000' };

export async function upload(
  server: TestServer,
  apiKey: string,
  customerId: string,
  fields: Record<string, string>,
  file: { bytes: Buffer; name?: string; type?: string } = { bytes: PDF },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'file.pdf');
  const res = await server.app.request(`/v2/customers/${customerId}/documents`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

/** An individual with additional information and every document in, ready for liveness. */
export async function readyIndividual(server: TestServer, api: Api, apiKey: string, lastDigit: number) {
  const created = await api.post('/v2/customers', individual({ taxId: taxIdEndingIn('cpf', lastDigit) }));
  const id = created.body.id as string;
  const info = await api.patch(`/v2/customers/${id}/additional-information`, individualInfo());
  if (info.status !== 200) throw new Error(info.text);
  for (const [fields, bytes] of [
    [{ type: 'ID_CARD', side: 'FRONT_SIDE', country: 'BRA' }, JPG],
    [{ type: 'ID_CARD', side: 'BACK_SIDE', country: 'BRA' }, PNG],
    [{ type: 'BANK_STATEMENT' }, PDF],
  ] as const) {
    const r = await upload(server, apiKey, id, fields, { bytes });
    if (r.status !== 201) throw new Error(r.text);
  }
  return id;
}

/** An individual taken all the way to APPROVED (and so with wallets). */
export async function approvedIndividual(server: TestServer, api: Api, apiKey: string, lastDigit = 0): Promise<string> {
  const id = await readyIndividual(server, api, apiKey, lastDigit);
  await api.post(`/v2/sandbox/customers/${id}/liveness`);
  const res = await api.post(`/v2/sandbox/customers/${id}/review`, { outcome: 'APPROVED' });
  if (res.status !== 200) throw new Error(res.text);
  return id;
}

/** A new partner of its own with one APPROVED individual: `{partnerId, apiKey, api, id}`. */
export async function approvedInNewPartner(server: TestServer) {
  const p = await newPartner(server);
  const id = await approvedIndividual(server, p.api, p.apiKey);
  return { ...p, id };
}
