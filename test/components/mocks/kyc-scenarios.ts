// msw scenarios for KYC/KYB: a small stateful fake of the BFF's customer routes (and the hosted page's /verify/api), with the sandbox review rules.
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { CreateCustomerRequest, Customer } from '../../../src/contract/customers';
import type { AdditionalInformation, AssociatedParty, CreateAssociatedParty, Document, DocumentType, Verification } from '../../../src/contract/kyc';
import type { BffCustomerCreated } from '../../../src/contract/widget-sessions';
import { isAlpha3Country } from '../../../src/contract/countries';
import { problemResponse, type RequestLog } from './bff-scenarios';

export const kycIds = {
  customer: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d',
} as const;

type Status = Customer['verification']['status'];
type Outcome = 'APPROVED' | 'TEMPORARY_REJECTION' | 'FINAL_REJECTION' | 'NEVER_STARTS';

/** What the next upload answers instead of storing the file: a network failure or a problem status. */
export type UploadFailure = 'network' | 'full' | 400 | 409 | 413 | 415 | 500 | 503;

export interface KycBackendOptions {
  /** URL pattern of the API; default any origin's `/bff`. The hosted page uses `*\/verify/api`. */
  base?: string;
  log?: RequestLog;
  /** The customer to start from; without one, POST /customers creates it. */
  customer?: Customer;
  /** Milliseconds before a started review is decided (the sandbox's RAMP_SANDBOX_REVIEW_MS). */
  reviewMs?: number;
  /** Delay before every answer. */
  delayMs?: number;
}

const IDENTITY = ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE'];
const BUSINESS_DOCS = ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY'];
const BUSINESS_PARTY_DOCS = ['INCORPORATION_ARTICLES', 'DIRECTORS_REGISTRY'];

let counter = 0;
/** Time-ordered ids (like UUIDv7), so "newest first" is a sort by id. */
function nextId(): string {
  counter++;
  const n = (Date.now() * 1000 + counter).toString(16).padStart(12, '0').slice(-12);
  return `01936f2a-${n.slice(0, 4)}-7${n.slice(4, 7)}-8${n.slice(7, 10)}-${n.padStart(12, '0')}`;
}

/** The sandbox rule: the tax id's last digit decides the review. */
export function sandboxOutcome(taxId: string): Outcome {
  const last = taxId.at(-1);
  return last === '1' ? 'NEVER_STARTS' : last === '2' ? 'TEMPORARY_REJECTION' : last === '3' ? 'FINAL_REJECTION' : 'APPROVED';
}

/** A customer record as the API shows it (requirements are recomputed by the backend on every read). */
export function kycCustomer(init: Partial<Customer> & Pick<Customer, 'type'>): Customer {
  const at = new Date().toISOString();
  const id = init.id ?? kycIds.customer;
  return {
    id,
    taxId: init.type === 'INDIVIDUAL' ? '52998224725' : '11222333000505',
    ...(init.type === 'INDIVIDUAL' ? { name: 'Ana Souza', birthDate: '1990-05-17', country: 'BRA' } : { legalName: 'Acme Pagamentos Ltda', incorporationDate: '2015-03-02', country: 'BRA', email: 'ops@acme.example' }),
    metadata: {},
    wallets: [],
    verification: { status: 'NOT_STARTED', level: 'STANDARD', link: `https://ramp.example/verify/link-${id}` },
    requirements: [],
    createdAt: at,
    updatedAt: at,
    ...init,
  };
}

/** An associated party as the API stores it, for a test that sets the scene (`backend.parties.push(kycParty(...))`). */
export function kycParty(init: Partial<AssociatedParty> & Pick<AssociatedParty, 'type'>): AssociatedParty {
  return {
    id: nextId(),
    customerId: kycIds.customer,
    parentId: null,
    roles: init.type === 'INDIVIDUAL' ? ['UBO'] : ['SHAREHOLDER'],
    ownershipPercentage: '50.00',
    ...(init.type === 'INDIVIDUAL' ? { name: 'Carla Dias', birthDate: '1985-01-01' } : { legalName: 'Holding Participações SA', incorporationDate: '2001-04-05' }),
    taxId: init.type === 'INDIVIDUAL' ? '11144477735' : '11444777000161',
    email: 'party@example.com',
    address: { country: 'BRA', line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
    verification: { status: 'NOT_STARTED', level: 'STANDARD' },
    requirements: [],
    createdAt: new Date().toISOString(),
    ...init,
  };
}

/**
 * The fake's state is public so a test can set the scene (`backend.documents.push(...)`) and read the outcome.
 * Writes honour Idempotency-Key (same key → the stored answer, once), as the server does.
 */
export class KycBackend {
  customer: Customer | undefined;
  documents: Document[] = [];
  parties: AssociatedParty[] = [];
  verifications: Verification[] = [];
  livenessDone = false;
  /** The next uploads fail like this, in order. */
  failUploads: UploadFailure[] = [];
  /** While set, an upload waits for it before it is answered, stored or failed (a slow network). */
  holdUploads: Promise<void> | undefined;
  /** How many times each Idempotency-Key reached an upload route. */
  readonly uploadKeys: string[] = [];
  private rejectedType: string | undefined;
  private readonly answered = new Map<string, Response>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly options: KycBackendOptions = {}) {
    if (options.customer) this.customer = { ...options.customer };
  }

  get base(): string {
    return this.options.base ?? '*/bff';
  }

  /** Stops pending review timers (call in afterEach). */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  // ── derived state, as the server derives it ──

  private requirements(c: Customer): Customer['requirements'] {
    type RequirementStatus = Customer['requirements'][number]['status'];
    const approved = c.verification.status === 'APPROVED';
    const sent = (ok: boolean): RequirementStatus => (approved ? 'APPROVED' : ok ? 'SENT' : 'NOT_SENT');
    const own = complete(this.documents.filter((d) => !d.associatedPartyId));
    const docStatus = (types: readonly string[]): RequirementStatus => {
      const docs = own.filter((d) => types.includes(d.type));
      if (docs.length === 0) return approved ? 'APPROVED' : 'NOT_SENT';
      if (docs.some((d) => d.status === 'REJECTED')) return 'REJECTED';
      return docs.every((d) => d.status === 'APPROVED') || approved ? 'APPROVED' : 'SENT';
    };
    const info = { name: 'ADDITIONAL_INFORMATION', status: sent(Boolean(c.additionalInformation)) } as const;
    if (c.type === 'INDIVIDUAL') {
      return [
        info,
        { name: 'ID_CARD', status: docStatus(IDENTITY), acceptedTypes: [...IDENTITY] },
        { name: 'BANK_STATEMENT', status: docStatus(['BANK_STATEMENT']) },
        { name: 'LIVENESS', status: sent(this.livenessDone) },
      ];
    }
    return [
      info,
      ...BUSINESS_DOCS.map((t) => ({ name: t, status: docStatus([t]) })),
      { name: 'ASSOCIATED_PARTIES', status: sent(this.parties.length > 0) },
    ];
  }

  /**
   * The customer as the real server answers on this base: the BFF never sends the partner's `metadata`; the hosted page's
   * API (`/verify/api`) sends only what the page shows, and after a final decision the outcome alone.
   */
  view(): Customer {
    const { metadata: _partnerOnly, ...c } = this.customer!;
    const requirements = this.requirements(this.customer!);
    if (!this.base.endsWith('/verify/api')) return { ...c, requirements } as Customer;
    const status = c.verification.status;
    const verification = { status, level: c.verification.level };
    const decided = status === 'APPROVED' || status === 'FINAL_REJECTION';
    const hosted = decided
      ? { id: c.id, type: c.type, verification, requirements: [] }
      : { id: c.id, type: c.type, ...(c.name ? { name: c.name } : {}), ...(c.legalName ? { legalName: c.legalName } : {}), verification, requirements };
    return hosted as unknown as Customer;
  }

  private partyView(p: AssociatedParty): AssociatedParty {
    const mine = complete(this.documents.filter((d) => d.associatedPartyId === p.id));
    const status = (types: readonly string[]) => mine.find((d) => types.includes(d.type))?.status ?? 'NOT_SENT';
    const requirements =
      p.type === 'INDIVIDUAL'
        ? [{ name: 'ID_CARD', status: status(IDENTITY), acceptedTypes: [...IDENTITY] }]
        : BUSINESS_PARTY_DOCS.map((t) => ({ name: t, status: status([t]) }));
    return { ...p, requirements };
  }

  /** What a business still lacks before review, in the server's words. */
  missing(): string[] {
    const c = this.customer!;
    const own = complete(this.documents.filter((d) => !d.associatedPartyId)).map((d) => d.type as string);
    const missing: string[] = [];
    if (!c.additionalInformation) missing.push('ADDITIONAL_INFORMATION');
    if (c.type === 'INDIVIDUAL') {
      if (!own.some((t) => IDENTITY.includes(t))) missing.push('ID_CARD');
      if (!own.includes('BANK_STATEMENT')) missing.push('BANK_STATEMENT');
      if (!this.livenessDone) missing.push('LIVENESS');
      return missing;
    }
    for (const t of BUSINESS_DOCS) if (!own.includes(t)) missing.push(t);
    if (this.parties.length === 0) missing.push('ASSOCIATED_PARTIES');
    for (const p of this.parties) {
      const theirs = complete(this.documents.filter((d) => d.associatedPartyId === p.id)).map((d) => d.type as string);
      if (p.type === 'INDIVIDUAL' && !theirs.some((t) => IDENTITY.includes(t))) missing.push(`associatedParties.${p.id}.ID_CARD`);
      if (p.type === 'BUSINESS') for (const t of BUSINESS_PARTY_DOCS) if (!theirs.includes(t)) missing.push(`associatedParties.${p.id}.${t}`);
    }
    return missing;
  }

  private setStatus(status: Status): void {
    const c = this.customer!;
    this.customer = { ...c, verification: { ...c.verification, status }, updatedAt: new Date().toISOString() };
    const latest = this.verifications[0];
    if (latest) {
      const { statusReason: _old, ...rest } = latest;
      this.verifications[0] = { ...rest, status, updatedAt: new Date().toISOString() };
    }
  }

  /** Starts the review (and decides it after `reviewMs`), as the sandbox does. */
  startReview(resumed = false): Verification {
    const c = this.customer!;
    const now = new Date().toISOString();
    const outcome = resumed ? 'APPROVED' : sandboxOutcome(c.taxId);
    if (!resumed) {
      const verification: Verification = { id: nextId(), customerId: c.id, status: 'NOT_STARTED', level: 'STANDARD', createdAt: now, updatedAt: now };
      this.verifications.unshift(verification);
    }
    if (outcome === 'NEVER_STARTS') return this.verifications[0]!;
    this.setStatus('UNDER_VERIFICATION');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.decide(outcome);
    }, this.options.reviewMs ?? 50);
    this.timers.add(timer);
    return this.verifications[0]!;
  }

  decide(outcome: Exclude<Outcome, 'NEVER_STARTS'>): void {
    const c = this.customer!;
    this.setStatus(outcome);
    if (outcome === 'TEMPORARY_REJECTION') {
      const type = c.type === 'INDIVIDUAL' ? 'BANK_STATEMENT' : 'DIRECTORS_REGISTRY';
      const comment = type === 'BANK_STATEMENT' ? 'The bank statement must be from the last 6 months.' : 'The directors registry must list the current directors and be signed.';
      this.rejectedType = type;
      this.documents = this.documents.map((d) => (d.type === type && !d.associatedPartyId ? { ...d, status: 'REJECTED', comment, rejectLabels: ['DOCUMENT_OUTDATED'] } : d));
      this.verifications[0] = {
        ...this.verifications[0]!,
        statusReason: { rejectLabels: ['DOCUMENT_OUTDATED'], documents: [{ type, status: 'REJECTED', comment, rejectLabels: ['DOCUMENT_OUTDATED'] }] },
      };
    }
    if (outcome === 'APPROVED') this.documents = this.documents.map((d) => ({ ...d, status: 'APPROVED' }));
  }

  // ── HTTP ──

  private async arrive(request: Request): Promise<void> {
    await this.options.log?.record(request);
    if (this.options.delayMs) await delay(this.options.delayMs);
  }

  /** Same Idempotency-Key → the stored answer; otherwise run and store. */
  private async once(request: Request, run: () => Promise<Response> | Response): Promise<Response> {
    const key = request.headers.get('idempotency-key');
    const stored = key ? this.answered.get(`${new URL(request.url).pathname}|${key}`) : undefined;
    if (stored) {
      const replay = stored.clone();
      return new Response(replay.body, { status: replay.status, headers: { ...Object.fromEntries(replay.headers), 'idempotency-replayed': 'true' } });
    }
    const response = await run();
    if (key && response.status < 500) this.answered.set(`${new URL(request.url).pathname}|${key}`, response.clone());
    return response;
  }

  private noCustomer(): Response {
    return problemResponse(404, 'NOT_FOUND', 'This onboarding session has not created its customer yet.');
  }

  private writable(): Response | undefined {
    const status = this.customer!.verification.status;
    if (status === 'FINAL_REJECTION') return problemResponse(409, 'INVALID_STATE', 'This customer was finally rejected; nothing more can be sent.');
    return undefined;
  }

  handlers(): HttpHandler[] {
    const b = this.base;
    return [
      http.post(`${b}/customers`, async ({ request }) => {
        await this.arrive(request);
        const body = (await request.clone().json()) as CreateCustomerRequest;
        const id = kycIds.customer;
        this.customer = kycCustomer({
          id,
          type: body.type,
          taxId: body.taxId.replace(/\W/g, ''),
          ...(body.type === 'INDIVIDUAL' ? { name: body.name, birthDate: body.birthDate, country: body.country ?? 'BRA' } : { legalName: body.legalName, incorporationDate: body.incorporationDate, country: body.country }),
          ...(body.email ? { email: body.email } : {}),
        });
        const created: BffCustomerCreated = {
          customer: this.view(),
          session: { token: `mock-bound-session.${id}`, expiresAt: new Date(Date.now() + 900_000).toISOString(), customerId: id },
        };
        return HttpResponse.json(created, { status: 201 });
      }),

      http.get(`${b}/session`, async ({ request }) => {
        await this.arrive(request);
        // Bound once the customer exists (created here, or given): as the BFF's answer for the session's token.
        return HttpResponse.json({ customerId: this.customer?.id ?? null, expiresAt: new Date(Date.now() + 900_000).toISOString() });
      }),

      http.get(`${b}/customer`, async ({ request }) => {
        await this.arrive(request);
        return this.customer ? HttpResponse.json(this.view()) : this.noCustomer();
      }),

      http.patch(`${b}/customer/additional-information`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return this.once(request, async () => {
          const status = this.customer!.verification.status;
          if (status !== 'NOT_STARTED' && status !== 'TEMPORARY_REJECTION') {
            return problemResponse(409, 'INVALID_STATE', `Additional information can be changed while NOT_STARTED or TEMPORARY_REJECTION, not ${status}.`);
          }
          const body = (await request.json()) as AdditionalInformation;
          if (body.type !== this.customer!.type) return problemResponse(400, 'VALIDATION_FAILED', 'type: must match the customer', { errors: [{ path: 'type', message: 'must match the customer type' }] });
          if (!/^\+[1-9]\d{7,14}$/.test(body.phone)) {
            return problemResponse(400, 'VALIDATION_FAILED', 'phone: is not a valid phone number', { errors: [{ path: 'phone', message: 'is not a valid phone number' }] });
          }
          this.customer = { ...this.customer!, additionalInformation: body as unknown as Record<string, unknown>, updatedAt: new Date().toISOString() };
          return HttpResponse.json(this.view());
        });
      }),

      http.get(`${b}/customer/documents`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return HttpResponse.json({ data: [...this.documents].sort((x, y) => (x.id < y.id ? 1 : -1)) });
      }),

      http.post(`${b}/customer/documents`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        this.uploadKeys.push(request.headers.get('idempotency-key') ?? '');
        const failure = this.failUploads.shift();
        await this.holdUploads;
        if (failure === 'network') return HttpResponse.error();
        if (failure) return this.uploadProblem(failure);
        return this.once(request, () => this.storeDocument(request));
      }),

      http.get(`${b}/customer/associated-parties`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return HttpResponse.json({ data: this.parties.map((p) => this.partyView(p)) });
      }),

      http.post(`${b}/customer/associated-parties`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return this.once(request, async () => {
          if (this.customer!.type !== 'BUSINESS') return problemResponse(409, 'INVALID_STATE', 'Associated parties belong to business customers only.');
          const body = (await request.json()) as CreateAssociatedParty;
          const errors: { path: string; message: string }[] = [];
          if (body.parentId && !this.parties.some((p) => p.id === body.parentId)) errors.push({ path: 'parentId', message: 'is not an associated party of this customer' });
          if (body.parentId && (body.roles.length !== 1 || body.roles[0] !== 'SHAREHOLDER')) errors.push({ path: 'roles', message: 'a nested party may only be a SHAREHOLDER' });
          const owns = body.roles.includes('UBO') || body.roles.includes('SHAREHOLDER');
          if (owns && body.ownershipPercentage === undefined) errors.push({ path: 'ownershipPercentage', message: 'is required for UBO and SHAREHOLDER' });
          if (errors.length) return problemResponse(400, 'VALIDATION_FAILED', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
          const party: AssociatedParty = {
            id: nextId(),
            customerId: this.customer!.id,
            parentId: body.parentId ?? null,
            type: body.type,
            roles: body.roles,
            ownershipPercentage: body.ownershipPercentage === undefined ? null : Number(body.ownershipPercentage).toFixed(2),
            ...(body.name ? { name: body.name } : {}),
            ...(body.legalName ? { legalName: body.legalName } : {}),
            taxId: body.taxId,
            ...(body.birthDate ? { birthDate: body.birthDate } : {}),
            ...(body.incorporationDate ? { incorporationDate: body.incorporationDate } : {}),
            email: body.email,
            address: body.address,
            verification: { status: 'NOT_STARTED', level: 'STANDARD' },
            requirements: [],
            createdAt: new Date().toISOString(),
          };
          this.parties.push(party);
          return HttpResponse.json(this.partyView(party), { status: 201 });
        });
      }),

      http.patch(`${b}/customer/associated-parties/:partyId`, async ({ request, params }) => {
        await this.arrive(request);
        const party = this.parties.find((p) => p.id === params.partyId);
        if (!this.customer || !party) return problemResponse(404, 'NOT_FOUND', 'Associated party not found');
        if (this.customer.verification.status !== 'NOT_STARTED') return problemResponse(409, 'INVALID_STATE', 'Parties can be corrected while NOT_STARTED only.');
        const body = (await request.json()) as Partial<CreateAssociatedParty>;
        const next: AssociatedParty = { ...party, ...(body as object), ownershipPercentage: body.ownershipPercentage === undefined ? party.ownershipPercentage : Number(body.ownershipPercentage).toFixed(2) } as AssociatedParty;
        this.parties = this.parties.map((p) => (p.id === party.id ? next : p));
        return HttpResponse.json(this.partyView(next));
      }),

      http.delete(`${b}/customer/associated-parties/:partyId`, async ({ request, params }) => {
        await this.arrive(request);
        if (!this.customer || !this.parties.some((p) => p.id === params.partyId)) return problemResponse(404, 'NOT_FOUND', 'Associated party not found');
        if (this.customer.verification.status !== 'NOT_STARTED') return problemResponse(409, 'INVALID_STATE', 'Parties can be removed while NOT_STARTED only.');
        if (this.parties.some((p) => p.parentId === params.partyId)) return problemResponse(409, 'CONFLICT', 'Remove the shareholders nested under this party first.');
        this.parties = this.parties.filter((p) => p.id !== params.partyId);
        return new HttpResponse(null, { status: 204 });
      }),

      http.get(`${b}/customer/verifications`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return HttpResponse.json({ data: this.verifications });
      }),

      http.post(`${b}/customer/verifications`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return this.once(request, () => {
          if (this.customer!.type !== 'BUSINESS') return problemResponse(409, 'INVALID_STATE', 'Individuals start verification with the liveness check.');
          const refused = this.writable();
          if (refused) return refused;
          if (this.customer!.verification.status !== 'NOT_STARTED') return problemResponse(409, 'INVALID_STATE', 'Verification already started.');
          const missing = this.missing();
          if (missing.length) return problemResponse(409, 'INVALID_STATE', `Verification cannot start: missing ${missing.join(', ')}.`, { missing });
          return HttpResponse.json(this.startReview(), { status: 201 });
        });
      }),

      http.post(`${b}/customer/liveness`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        this.uploadKeys.push(request.headers.get('idempotency-key') ?? '');
        const failure = this.failUploads.shift();
        if (failure === 'network') return HttpResponse.error();
        if (failure) return this.uploadProblem(failure);
        return this.once(request, async () => {
          const form = await request.formData();
          const file = form.get('file');
          if (!(file instanceof Blob)) return problemResponse(400, 'VALIDATION_FAILED', 'file: is required', { errors: [{ path: 'file', message: 'is required' }] });
          const kind = await sniff(file);
          if (kind !== 'image/jpeg' && kind !== 'image/png') return problemResponse(415, 'UNSUPPORTED_MEDIA_TYPE', 'The selfie must be a JPG or PNG image.');
          return this.completeLiveness();
        });
      }),

      http.post(`${b}/customer/liveness/simulate`, async ({ request }) => {
        await this.arrive(request);
        if (!this.customer) return this.noCustomer();
        return this.once(request, () => this.completeLiveness());
      }),
    ];
  }

  private completeLiveness(): Response {
    const refused = this.writable();
    if (refused) return refused;
    this.livenessDone = true;
    if (this.customer!.verification.status === 'NOT_STARTED' && this.missing().length === 0) this.startReview();
    return HttpResponse.json(this.view());
  }

  private uploadProblem(status: Exclude<UploadFailure, 'network'>): Response {
    switch (status) {
      case 413:
        return problemResponse(413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 50 MB.');
      case 415:
        return problemResponse(415, 'UNSUPPORTED_MEDIA_TYPE', 'The file is not a JPG, PNG or PDF.');
      case 409:
        return problemResponse(409, 'INVALID_STATE', 'Send additional information before documents.', { missing: ['ADDITIONAL_INFORMATION'] });
      case 'full':
        return problemResponse(409, 'DOCUMENT_QUOTA_EXCEEDED', 'This widget session has uploaded its budget.', { limit: { bytes: 67108864 }, used: { bytes: 67000000 }, scope: 'session' });
      case 400:
        return problemResponse(400, 'VALIDATION_FAILED', 'side: is required for ID_CARD', { errors: [{ path: 'side', message: 'is required for ID_CARD: upload FRONT_SIDE and BACK_SIDE separately' }] });
      default:
        return problemResponse(status, 'SERVER_ERROR', 'Something went wrong.');
    }
  }

  private async storeDocument(request: Request): Promise<Response> {
    const c = this.customer!;
    const refused = this.writable();
    if (refused) return refused;
    if (c.verification.status === 'APPROVED') return problemResponse(409, 'INVALID_STATE', 'This customer is already approved; no more documents are needed.');
    if (!c.additionalInformation) {
      return problemResponse(409, 'INVALID_STATE', 'Send additional information before documents.', { missing: ['ADDITIONAL_INFORMATION'] });
    }
    const form = await request.formData();
    const type = String(form.get('type') ?? '') as DocumentType;
    const side = form.get('side') ? String(form.get('side')) : undefined;
    const partyId = form.get('associatedPartyId') ? String(form.get('associatedPartyId')) : undefined;
    const country = form.get('country') ? String(form.get('country')).toUpperCase() : undefined;
    const file = form.get('file');
    const errors: { path: string; message: string }[] = [];
    if (country !== undefined && !isAlpha3Country(country)) errors.push({ path: 'country', message: 'must be an ISO 3166-1 alpha-3 code such as BRA' });
    const needsSide = type === 'ID_CARD' || type === 'DRIVERS_LICENSE';
    if (needsSide && !side) errors.push({ path: 'side', message: `is required for ${type}` });
    if (partyId && !this.parties.some((p) => p.id === partyId)) errors.push({ path: 'associatedPartyId', message: 'is not an associated party of this customer' });
    if (!(file instanceof Blob)) errors.push({ path: 'file', message: 'is required' });
    if (errors.length) return problemResponse(400, 'VALIDATION_FAILED', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
    const blob = file as File;
    const contentType = await sniff(blob);
    if (!contentType) return problemResponse(415, 'UNSUPPORTED_MEDIA_TYPE', 'The file is not a JPG, PNG or PDF.');
    const document: Document = {
      id: nextId(),
      type,
      side: needsSide ? ((side as Document['side']) ?? null) : null,
      country: country ?? null,
      associatedPartyId: partyId ?? null,
      status: 'SENT',
      comment: null,
      rejectLabels: [],
      fileName: blob.name || 'upload',
      contentType,
      size: blob.size,
      sha256: '0'.repeat(64),
      createdAt: new Date().toISOString(),
    };
    this.documents.push(document);
    // A corrected document after a temporary rejection resumes the review (which then approves), as in the sandbox.
    if (c.verification.status === 'TEMPORARY_REJECTION' && type === this.rejectedType && !partyId) {
      this.rejectedType = undefined;
      this.startReview(true);
    }
    return HttpResponse.json(document, { status: 201 });
  }
}

async function sniff(blob: Blob): Promise<Document['contentType'] | undefined> {
  const b = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return 'application/pdf';
  return undefined;
}

/** Tiny valid-looking files for tests and the demo: the first bytes are what the server sniffs. */
export const sampleFiles = {
  pdf: (name = 'statement.pdf') => new File(['%PDF-1.4\n%sample\n'], name, { type: 'application/pdf' }),
  jpg: (name = 'photo.jpg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])], name, { type: 'image/jpeg' }),
  png: (name = 'scan.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])], name, { type: 'image/png' }),
  /** A text file that only claims to be a PDF. */
  fakePdf: (name = 'notes.pdf') => new File(['just some text, not a PDF'], name, { type: 'application/pdf' }),
};

/** The KYC scenarios by name, each a fresh backend's handlers (keep the backend to read its state). */
export const kycScenarios = {
  /** A fresh individual, nothing sent yet. */
  individual: (o: KycBackendOptions = {}) => new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL' }), ...o }),
  /** A fresh business, nothing sent yet. */
  business: (o: KycBackendOptions = {}) => new KycBackend({ customer: kycCustomer({ type: 'BUSINESS' }), ...o }),
  /** No customer yet: POST /customers creates it, then the KYC routes work on it. */
  onboarding: (o: KycBackendOptions = {}) => new KycBackend(o),
} satisfies Record<string, (o?: KycBackendOptions) => KycBackend>;

/** As the server counts them: an ID card or driver's licence only once both of its sides are in. */
function complete<D extends { type: string; side?: string | null }>(docs: D[]): D[] {
  const twoSided = (t: string) => t === 'ID_CARD' || t === 'DRIVERS_LICENSE';
  return docs.filter((d) => !twoSided(d.type) || (['FRONT_SIDE', 'BACK_SIDE'] as const).every((side) => docs.some((x) => x.type === d.type && x.side === side)));
}
