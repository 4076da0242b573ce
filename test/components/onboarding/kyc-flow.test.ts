// <ramp-onboarding> past the first step, in Chromium against a stateful msw fake: business and individual paths, resume, review, rejection, pt-BR, keyboard.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/define';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import type { RampDocumentUploader } from '../../../src/components/document-uploader/document-uploader';
import type { RampDocumentUploadedEvent, RampVerificationChangedEvent } from '../../../src/events';
import type { AdditionalInformation } from '../../../src/contract/kyc';
import { KycBackend, kycCustomer, RequestLog, sampleFiles } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { $, atStep, click, fill, q, type Root, text } from './dom';

const VALID_CPF = '52998224725';
const PARENT_CNPJ = '11444777000161';
const NESTED_CPF = '11144477735';

// ── helpers ──

const focusedId = (el: RampOnboarding) => el.shadowRoot!.activeElement?.id;
async function mount(template = html`<ramp-onboarding session="bound-session" api-base="/bff" lang="en"></ramp-onboarding>`): Promise<RampOnboarding> {
  const el = await fixture<RampOnboarding>(template);
  el.pollIntervalMs = 40;
  await el.updateComplete;
  return el;
}

function collect<E extends Event>(target: EventTarget, type: string): E[] {
  const events: E[] = [];
  target.addEventListener(type, (e) => events.push(e as E));
  return events;
}

/** Picks a file in an uploader inside the onboarding (nested shadow roots), as the file picker would. */
async function upload(el: RampOnboarding, uploaderTestId: string, zone: string, file: File): Promise<void> {
  const uploader = $<RampDocumentUploader>(el, `[data-testid="${uploaderTestId}"]`);
  await waitUntil(() => uploader.shadowRoot?.querySelector(`[data-testid="input-${zone}"]`), `${uploaderTestId} should offer ${zone}`);
  const input = uploader.shadowRoot!.querySelector<HTMLInputElement>(`[data-testid="input-${zone}"]`)!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await waitUntil(() => uploader.sentDocuments.some((d) => d.fileName === file.name), `${file.name} should be stored`);
}

async function fillAddress(el: RampOnboarding, prefix: string): Promise<void> {
  await fill(el, `${prefix}-address-line1`, 'Av. Paulista, 1000');
  await fill(el, `${prefix}-address-city`, 'São Paulo');
  await fill(el, `${prefix}-address-state`, 'SP');
  await fill(el, `${prefix}-address-postalCode`, '01310-100');
}

async function fillBusinessInfo(el: RampOnboarding): Promise<void> {
  await fill(el, 'info-companyType', 'PAYMENT_GATEWAY');
  await fill(el, 'info-website', 'acme.example');
  await fill(el, 'info-servicesProvided', 'Payments for online shops.');
  await fill(el, 'info-phone', '11 3333-4444');
  await fillAddress(el, 'info');
  await fill(el, 'info-annualRevenue', '1,200,000');
  await fill(el, 'info-monthlyTransactionVolume', '100000');
  await fill(el, 'info-monthlyVolumeInUSD', '50000.5');
  await fill(el, 'info-transactionVolumeInUSD', '2500');
  await click(el, '[data-testid="jurisdictions-BRA"]');
  await click(el, '[data-testid="jurisdictions-USA"]');
  await click(el, '[data-testid="involvedActivities-NONE"]');
  await click(el, '[data-testid="transactionCounterparties-MERCHANTS_SUPPLIERS"]');
  await fill(el, 'info-sourceOfFunds', 'COMPANY');
  await fill(el, 'info-complianceAndAML', 'A compliance officer reviews every merchant.');
  await click(el, '[data-testid="info-isRegulatedActivity"]');
  await fill(el, 'info-regulatedActivityDetails', 'Central Bank of Brazil, payment institution 123');
}

async function fillIndividualInfo(el: RampOnboarding): Promise<void> {
  await fill(el, 'info-phone', '(11) 98765-4321');
  await fillAddress(el, 'info');
  await fill(el, 'info-professionalSituation', 'EMPLOYEE');
  await fill(el, 'info-professionalOccupation', 'Nurse');
  await fill(el, 'info-sourceOfFunds', 'EMPLOYMENT');
  await fill(el, 'info-monthlyVolumeInUSD', '2500');
  await fill(el, 'info-transactionVolumeInUSD', '500');
  await click(el, '[data-testid="jurisdictions-BRA"]');
  await click(el, '[data-testid="involvedActivities-NONE"]');
  await click(el, '[data-testid="transactionCounterparties-SELF"]');
}

async function fillParty(el: RampOnboarding, p: { type: 'INDIVIDUAL' | 'BUSINESS'; name: string; taxId: string; date: string; ownership?: string }): Promise<void> {
  await click(el, `[data-testid="party-type-${p.type}"]`);
  if (p.ownership !== undefined) await fill(el, 'party-ownershipPercentage', p.ownership);
  await fill(el, p.type === 'INDIVIDUAL' ? 'party-name' : 'party-legalName', p.name);
  await fill(el, 'party-taxId', p.taxId);
  await fill(el, p.type === 'INDIVIDUAL' ? 'party-birthDate' : 'party-incorporationDate', p.date);
  await fill(el, 'party-email', `${p.name.split(' ')[0]!.toLowerCase()}@example.com`);
  await fillAddress(el, 'party');
}

function businessBackend(taxId: string, log?: RequestLog): KycBackend {
  const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', taxId }), reviewMs: 150, ...(log ? { log } : {}) });
  worker.use(...backend.handlers());
  return backend;
}

/** A business with everything in place, so the review can start; `taxId` decides the sandbox outcome. */
function readyBusiness(taxId: string): KycBackend {
  const backend = businessBackend(taxId);
  backend.customer = { ...backend.customer!, additionalInformation: { type: 'BUSINESS' } };
  return backend;
}

// ── tests ──

describe('<ramp-onboarding> KYC and KYB', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('business path', () => {
    it('additional information, a shareholder with a nested shareholder, documents, start, and the review to APPROVED', async () => {
      const log = new RequestLog();
      const backend = businessBackend('11222333000180', log);
      const el = await mount();
      const changed = collect<RampVerificationChangedEvent>(document, 'ramp-verification-changed');
      const uploaded = collect<RampDocumentUploadedEvent>(document, 'ramp-document-uploaded');

      // Resumed: a session bound to a business with nothing sent starts at additional information.
      await atStep(el, 'info');
      expect(text(el, '#step-title')).to.equal('About your company');
      expect([...el.shadowRoot!.querySelectorAll('[part~="step"]')].map((s) => (s as HTMLElement).dataset.step)).to.deep.equal([
        'customer',
        'info',
        'parties',
        'documents',
        'submit',
        'status',
      ]);
      await expect(el).to.be.accessible();
      await fillBusinessInfo(el);
      $(el, '#info-annualRevenue').dispatchEvent(new FocusEvent('blur'));
      await el.updateComplete;
      expect($(el, '#info-annualRevenue').value, 'amounts read in the user’s format').to.equal('1,200,000');
      await click(el, '[data-testid="info-submit"]');
      await atStep(el, 'parties');
      const patch = log.entries.find((e) => e.method === 'PATCH')!;
      expect(patch.body).to.deep.equal({
        type: 'BUSINESS',
        phone: '+551133334444',
        address: { country: 'BRA', line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
        monthlyVolumeInUSD: '50000.5',
        transactionVolumeInUSD: '2500',
        jurisdictions: ['BRA', 'USA'],
        involvedActivities: ['NONE'],
        transactionCounterparties: ['MERCHANTS_SUPPLIERS'],
        companyType: 'PAYMENT_GATEWAY',
        annualRevenue: '1200000',
        monthlyTransactionVolume: '100000',
        complianceAndAML: 'A compliance officer reviews every merchant.',
        isRegulatedActivity: true,
        regulatedActivityDetails: 'Central Bank of Brazil, payment institution 123',
        website: 'https://acme.example',
        sourceOfFunds: 'COMPANY',
        servicesProvided: 'Payments for online shops.',
      } satisfies AdditionalInformation);
      expect(focusedId(el), 'focus moves to the new step').to.equal('step-title');

      // A company shareholder: only SHAREHOLDER is open to it.
      await click(el, '[data-testid="add-party"]');
      expect(focusedId(el)).to.equal('party-form-title');
      await click(el, '[data-testid="party-type-BUSINESS"]');
      expect($(el, '[data-testid="party-role-UBO"]').disabled).to.equal(true);
      expect($(el, '[data-testid="party-role-REPRESENTATIVE"]').disabled).to.equal(true);
      await click(el, '[data-testid="party-role-SHAREHOLDER"]');
      await fillParty(el, { type: 'BUSINESS', name: 'Holding Participações SA', taxId: PARENT_CNPJ, date: '2001-04-05', ownership: '60' });
      await expect(el).to.be.accessible();
      await click(el, '[data-testid="party-save"]');
      await waitUntil(() => backend.parties.length === 1, 'the company shareholder should be created');
      const parent = backend.parties[0]!;
      expect(parent).to.include({ type: 'BUSINESS', legalName: 'Holding Participações SA', ownershipPercentage: '60.00', parentId: null });
      expect(parent.roles).to.deep.equal(['SHAREHOLDER']);
      await waitUntil(
        () => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.testid === `add-nested-${parent.id}`,
        "focus goes to the new party's own button",
      );

      // Its own shareholder, nested under it: the form fixes the role.
      await click(el, `[data-testid="add-nested-${parent.id}"]`);
      expect(text(el, '#party-form-title')).to.equal('New shareholder of Holding Participações SA');
      expect(q(el, '[data-testid="party-role-UBO"]') === null, 'no role choice for a nested party').to.equal(true);
      await fillParty(el, { type: 'INDIVIDUAL', name: 'Bruno Lima', taxId: NESTED_CPF, date: '1980-02-03', ownership: '100' });
      await click(el, '[data-testid="party-save"]');
      await waitUntil(() => backend.parties.length === 2, 'the nested shareholder should be created');
      const nestedRequest = log.entries.filter((e) => e.method === 'POST' && e.url.endsWith('/associated-parties')).at(-1)!.body;
      expect(nestedRequest).to.deep.include({ type: 'INDIVIDUAL', roles: ['SHAREHOLDER'], ownershipPercentage: '100', parentId: parent.id, name: 'Bruno Lima', taxId: NESTED_CPF });
      const nested = backend.parties[1]!;
      // The backend has it before the answer reaches the element: wait for the list, not for a render.
      await waitUntil(() => q(el, `[data-party-id="${parent.id}"] [data-party-id="${nested.id}"]`) !== null, 'listed under its parent');

      // A typo is corrected in place: the form opens on the party, its type fixed, and PATCH sends the correction only.
      await click(el, `[data-testid="edit-${nested.id}"]`);
      expect(focusedId(el)).to.equal('party-form-title');
      expect(text(el, '#party-form-title')).to.equal('Correct Bruno Lima');
      expect($(el, '[data-testid="party-type-BUSINESS"]').disabled, 'the type cannot change').to.equal(true);
      expect($(el, '#party-name').value).to.equal('Bruno Lima');
      await fill(el, 'party-name', 'Bruno Lima Souza');
      await click(el, '[data-testid="party-save"]');
      await waitUntil(() => backend.parties[1]?.name === 'Bruno Lima Souza', 'the correction should be saved');
      const correction = log.entries.find((e) => e.method === 'PATCH' && e.url.endsWith(`/associated-parties/${nested.id}`))!.body as Record<string, unknown>;
      expect(correction).to.include({ name: 'Bruno Lima Souza', ownershipPercentage: '100' });
      expect(correction).not.to.have.property('type');
      expect(correction).not.to.have.property('parentId');
      await waitUntil(() => text(el, `[data-party-id="${nested.id}"] .party-name`) === 'Bruno Lima Souza', 'the list should show the correction');
      expect(backend.parties).to.have.length(2);

      // A company with a shareholder under it cannot go first: the refusal is said, nothing is removed.
      await click(el, `[data-testid="remove-${parent.id}"]`);
      await click(el, `[data-testid="really-remove-${parent.id}"]`);
      await waitUntil(() => q(el, '[role="alert"]'), 'the refusal should show');
      // In our words, naming the party: never the server's English detail.
      expect(text(el, '[role="alert"]')).to.equal('Remove the shareholders listed under Holding Participações SA first.');
      expect(backend.parties).to.have.length(2);

      // One added by mistake is removed.
      await click(el, '[data-testid="add-party"]');
      await click(el, '[data-testid="party-role-REPRESENTATIVE"]');
      await fillParty(el, { type: 'INDIVIDUAL', name: 'Carla Mistake', taxId: VALID_CPF, date: '1985-01-01' });
      await click(el, '[data-testid="party-save"]');
      await waitUntil(() => backend.parties.length === 3, 'the third party should be created');
      const extra = backend.parties[2]!;
      // The backend has it before the answer reaches the element: wait for the list, not for a render.
      await waitUntil(() => q(el, `[data-testid="remove-${extra.id}"]`) !== null, 'the new party should be listed');
      await click(el, `[data-testid="remove-${extra.id}"]`);
      await click(el, `[data-testid="really-remove-${extra.id}"]`);
      await waitUntil(() => backend.parties.length === 2, 'the party should be removed');
      await waitUntil(() => q(el, `[data-party-id="${extra.id}"]`) === null, 'the removed party should leave the list');
      await waitUntil(() => (text(el, '[part~="status"]') ?? text(el, '[role="status"]') ?? '').includes('Carla Mistake removed.'), 'the removal should be announced');
      await expect(el).to.be.accessible();

      // Documents: the company's and each party's.
      await click(el, '[data-testid="parties-continue"]');
      await atStep(el, 'documents');
      await click(el, '[data-testid="documents-continue"]');
      await waitUntil(() => q(el, '[data-testid="documents-missing"]'), 'what is missing should show');
      expect(text(el, '[data-testid="documents-missing"]')).to.contain('Directors registry').and.to.contain('Bruno Lima Souza: Identity document');
      for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY', 'DIRECTORS_REGISTRY']) await upload(el, 'uploader', type, sampleFiles.pdf(`${type}.pdf`));
      await upload(el, `uploader-${parent.id}`, 'INCORPORATION_ARTICLES', sampleFiles.pdf('holding-articles.pdf'));
      await upload(el, `uploader-${parent.id}`, 'DIRECTORS_REGISTRY', sampleFiles.pdf('holding-directors.pdf'));
      await upload(el, `uploader-${nested.id}`, 'ID_CARD-FRONT_SIDE', sampleFiles.jpg('bruno-front.jpg'));
      await upload(el, `uploader-${nested.id}`, 'ID_CARD-BACK_SIDE', sampleFiles.jpg('bruno-back.jpg'));
      expect(backend.documents.filter((d) => d.associatedPartyId === nested.id).map((d) => d.side)).to.deep.equal(['FRONT_SIDE', 'BACK_SIDE']);
      expect(uploaded).to.have.length(7);
      await click(el, '[data-testid="documents-continue"]');
      await atStep(el, 'submit');

      // Start: under review, then approved, each change announced as an event.
      await click(el, '[data-testid="start-verification"]');
      await atStep(el, 'status');
      await waitUntil(() => q(el, '[data-testid="verification-status"]')?.dataset.status === 'APPROVED', 'the review should approve', { timeout: 4000 });
      expect(text(el, '[data-testid="status-message"]')).to.equal('Your account is verified. You can now buy and sell stablecoins.');
      expect(changed.map((e) => e.detail)).to.deep.equal([
        { customerId: backend.customer!.id, status: 'UNDER_VERIFICATION' },
        { customerId: backend.customer!.id, status: 'APPROVED' },
      ]);
      expect(changed.every((e) => e.bubbles && e.composed)).to.equal(true);
      await expect(el).to.be.accessible();
    });

    it('a 409 on start lists what is missing in words, with the party’s name, and leads back to fix it', async () => {
      const backend = readyBusiness('11222333000180');
      backend.parties.push({
        ...kycCustomer({ type: 'INDIVIDUAL' }),
        id: '01936f2a-0000-7000-8000-00000000b0b0',
        customerId: backend.customer!.id,
        parentId: null,
        roles: ['UBO'],
        ownershipPercentage: '100.00',
        name: 'Carla Dias',
        email: 'c@example.com',
        address: { country: 'BRA', line1: 'x', city: 'y', state: 'z', postalCode: '1' },
        verification: { status: 'NOT_STARTED', level: 'STANDARD' },
        requirements: [],
      } as never);
      for (const type of ['INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY'] as const) {
        backend.documents.push({ id: `d-${type}`, type, side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'x.pdf', contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
      }
      // The server's 409 is the truth even when this page thinks all is well (another tab, a stale view): reach the step directly.
      const el = await mount();
      await atStep(el, 'documents');
      (el as unknown as { goTo(step: string): Promise<void> }).goTo('submit');
      await atStep(el, 'submit');
      await click(el, '[data-testid="start-verification"]');
      await waitUntil(() => q(el, '[data-testid="verification-missing"]'), 'the missing list should show');
      expect([...el.shadowRoot!.querySelectorAll('[data-testid="missing-list"] li')].map((li) => li.textContent?.trim())).to.deep.equal([
        'Directors registry',
        'Carla Dias: Identity document',
      ]);
      expect(q(el, '[data-testid="verification-missing"]')!.getAttribute('role')).to.equal('alert');
      expect(focusedId(el)).to.equal('missing-title');
      await expect(el).to.be.accessible();
      await click(el, '[data-testid="fix-missing"]');
      await atStep(el, 'documents');
    });

    it('TEMPORARY_REJECTION shows the reasons in our words (never the reviewer’s note), and a re-upload resumes the review to APPROVED', async () => {
      const backend = readyBusiness('11222333000182');
      backend.documents.push({ id: 'd-dir', type: 'DIRECTORS_REGISTRY', side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'directors.pdf', contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
      backend.startReview();
      const el = await mount();
      const changed = collect<RampVerificationChangedEvent>(el, 'ramp-verification-changed');
      await atStep(el, 'status');
      await waitUntil(() => q(el, '[data-testid="rejection"]') && q(el, '[data-testid="rejected-documents"]'), 'the reasons should show', { timeout: 4000 });
      expect(text(el, '[data-testid="reject-labels"]')).to.equal('A document is too old.');
      expect(text(el, '[data-testid="rejected-documents"]')).to.equal('Directors registry: A document is too old.');
      const reupload = $<RampDocumentUploader>(el, '[data-testid="reupload"]');
      expect(reupload.getAttribute('types')).to.equal('DIRECTORS_REGISTRY');
      await waitUntil(() => reupload.shadowRoot?.querySelector('[data-testid="comment"]'));
      expect(reupload.shadowRoot!.querySelectorAll('[part="requirement"]')).to.have.length(1);
      expect(reupload.shadowRoot!.querySelector('[data-testid="comment"]')!.textContent!.trim()).to.equal('Why: A document is too old.');
      expect(el.shadowRoot!.textContent + reupload.shadowRoot!.textContent).not.to.contain('must list the current directors');
      await expect(el).to.be.accessible();
      await upload(el, 'reupload', 'DIRECTORS_REGISTRY', sampleFiles.pdf('directors-signed.pdf'));
      await waitUntil(() => q(el, '[data-testid="verification-status"]')?.dataset.status === 'APPROVED', 'the resumed review should approve', { timeout: 4000 });
      // The rejection is a change when the element saw the review running, or its first state when the review finished
      // before its first read (a loaded machine): either way, the re-upload's two changes follow it, in order.
      const statuses = changed.map((e) => e.detail.status);
      expect(statuses.filter((st) => st !== 'TEMPORARY_REJECTION')).to.deep.equal(['UNDER_VERIFICATION', 'APPROVED']);
      expect(statuses.indexOf('UNDER_VERIFICATION')).to.equal(statuses.length - 2);
    });

    it('FINAL_REJECTION is a clear final state with nothing to send', async () => {
      const backend = readyBusiness('11222333000183');
      backend.decide('FINAL_REJECTION');
      const el = await mount();
      await atStep(el, 'status');
      expect($(el, '[data-testid="verification-status"]').dataset.tone).to.equal('danger');
      expect(text(el, '[data-testid="status-message"]')).to.equal('We could not verify your account. This decision is final: documents cannot be sent again.');
      expect(q(el, 'ramp-document-uploader') === null).to.equal(true);
      expect(q(el, '.spinner') === null, 'nothing is pending').to.equal(true);
      await expect(el).to.be.accessible();
    });
  });

  describe('individual path', () => {
    let opened: unknown[][] = [];
    const realOpen = window.open;
    beforeEach(() => {
      opened = [];
      window.open = ((...args: unknown[]) => {
        opened.push(args);
        return { opener: window } as unknown as Window;
      }) as typeof window.open;
    });
    afterEach(() => {
      window.open = realOpen;
    });

    it('from a new customer to the liveness step, which opens the hosted link in a popup, never an iframe, then follows the review', async () => {
      const log = new RequestLog();
      const backend = new KycBackend({ log, reviewMs: 100 });
      worker.use(...backend.handlers());
      const el = await mount(html`<ramp-onboarding session="onboarding-session" api-base="/bff" lang="en"></ramp-onboarding>`);
      const changed = collect<RampVerificationChangedEvent>(el, 'ramp-verification-changed');
      await aTimeout(20); // the look-up answers 404: an onboarding session stays on the first step
      expect(el.currentStep).to.equal('customer');
      await fill(el, 'name', 'Ana Maria Souza');
      await fill(el, 'taxId', VALID_CPF);
      await fill(el, 'birthDate', '1990-05-17');
      await click(el, '[data-testid="submit"]');
      await atStep(el, 'info');
      expect(el.session).to.equal(`mock-bound-session.${backend.customer!.id}`);
      expect([$(el, '#info-firstName').value, $(el, '#info-middleName').value, $(el, '#info-lastName').value]).to.deep.equal(['Ana', 'Maria', 'Souza']);
      await fillIndividualInfo(el);
      await click(el, '[data-testid="info-submit"]');
      await atStep(el, 'documents');
      expect(log.entries.find((e) => e.method === 'PATCH')!.body).to.deep.include({ phone: '+5511987654321', monthlyVolumeInUSD: '2500', professionalSituation: 'EMPLOYEE' });
      await upload(el, 'uploader', 'ID_CARD-FRONT_SIDE', sampleFiles.jpg('front.jpg'));
      await upload(el, 'uploader', 'ID_CARD-BACK_SIDE', sampleFiles.jpg('back.jpg'));
      await upload(el, 'uploader', 'BANK_STATEMENT', sampleFiles.pdf('statement.pdf'));
      await click(el, '[data-testid="documents-continue"]');
      await atStep(el, 'liveness');
      await expect(el).to.be.accessible();

      await click(el, '[data-testid="start-liveness"]');
      expect(opened).to.deep.equal([[`${backend.customer!.verification.link}?lang=en`, 'ramp-liveness', 'popup=yes,width=480,height=760']]);
      const anywhere = (root: ParentNode): Element[] => [...root.querySelectorAll('*')].flatMap((n) => [n, ...(n.shadowRoot ? anywhere(n.shadowRoot) : [])]);
      expect(anywhere(el.shadowRoot!).some((n) => n.tagName === 'IFRAME'), 'no iframe anywhere').to.equal(false);
      expect(q(el, '[data-testid="liveness-waiting"]') !== null).to.equal(true);
      expect($<HTMLAnchorElement>(el, '[data-testid="liveness-link"]').href).to.equal(`${backend.customer!.verification.link}?lang=en`);
      expect($<HTMLAnchorElement>(el, '[data-testid="liveness-link"]').target).to.equal('_blank');

      // The selfie is taken on the hosted page; this page notices by itself.
      const customerReads = () => log.entries.filter((e) => e.method === 'GET' && e.url.endsWith('/bff/customer')).length;
      const before = customerReads();
      await waitUntil(() => customerReads() > before + 1, 'it should poll while waiting for the selfie');
      backend.livenessDone = true;
      backend.startReview();
      await atStep(el, 'status');
      await waitUntil(() => q(el, '[data-testid="verification-status"]')?.dataset.status === 'APPROVED', 'the review should approve', { timeout: 4000 });
      expect(changed.map((e) => e.detail.status)).to.deep.equal(['UNDER_VERIFICATION', 'APPROVED']);
      const reads = customerReads();
      await aTimeout(200);
      expect(customerReads(), 'no polling once the review is decided').to.equal(reads);
    });

    /**
     * An individual on the documents step (passport sent) picks a bank statement whose upload the backend holds back
     * (failing it as `failures` say once released), and presses Continue while it is on its way.
     */
    async function continueWhileUploading(failures: KycBackend['failUploads'] = []) {
      const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
      backend.documents.push({ id: 'd-PASSPORT', type: 'PASSPORT', side: null, country: 'BRA', associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'p.jpg', contentType: 'image/jpeg', size: 1, sha256: '', createdAt: '' });
      worker.use(...backend.handlers());
      const el = await mount();
      await atStep(el, 'documents');
      let release!: () => void;
      backend.holdUploads = new Promise((resolve) => (release = resolve));
      backend.failUploads = failures;
      const uploader = $<RampDocumentUploader>(el, '[data-testid="uploader"]');
      await waitUntil(() => uploader.shadowRoot?.querySelector('[data-testid="input-BANK_STATEMENT"]'), 'the statement zone should show');
      const input = uploader.shadowRoot!.querySelector<HTMLInputElement>('[data-testid="input-BANK_STATEMENT"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(sampleFiles.pdf('statement.pdf'));
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await waitUntil(() => uploader.busy, 'the upload should be on its way');
      await click(el, '[data-testid="documents-continue"]');
      await waitUntil(() => text(el, '[data-testid="documents-continue"]') === 'Waiting for the uploads to finish…', 'the button should say why it waits');
      return { el, backend, uploader, release };
    }

    it('continue pressed while an upload is on its way waits for it, instead of listing that document as missing', async () => {
      const { el, backend, release } = await continueWhileUploading();
      expect($(el, '[data-testid="documents-continue"]').getAttribute('aria-disabled')).to.equal('true');
      await aTimeout(100);
      expect(q(el, '[data-testid="documents-missing"]'), 'nothing is missing: it is on its way').to.equal(null);
      expect(el.currentStep).to.equal('documents');

      release();
      await atStep(el, 'liveness');
      expect(backend.documents.map((d) => d.type)).to.include('BANK_STATEMENT');
    });

    it('an upload that fails while continue waits for it ends the wait: that document is then listed as missing', async () => {
      const { el, uploader, release } = await continueWhileUploading([415]);

      release();
      await waitUntil(() => q(el, '[data-testid="documents-missing"]'), 'the refused statement should be listed as missing');
      expect(text(el, '[data-testid="documents-continue"]')).not.to.equal('Waiting for the uploads to finish…');
      expect(uploader.busy).to.equal(false);
      expect(el.currentStep).to.equal('documents');
    });

    it('a blocked popup leaves a link to open the page in a new tab', async () => {
      window.open = (() => null) as typeof window.open;
      const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
      for (const type of ['PASSPORT', 'BANK_STATEMENT'] as const) {
        backend.documents.push({ id: `d-${type}`, type, side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'x.pdf', contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
      }
      worker.use(...backend.handlers());
      const el = await mount();
      await atStep(el, 'liveness');
      await click(el, '[data-testid="start-liveness"]');
      expect(text(el, '[data-testid="liveness-blocked"]')).to.equal('Your browser blocked the new window.');
      expect($<HTMLAnchorElement>(el, '[data-testid="liveness-link"]').href).to.equal(`${backend.customer!.verification.link}?lang=en`);
    });

    it('an individual’s TEMPORARY_REJECTION asks for the bank statement again', async () => {
      const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', taxId: '52998224702', additionalInformation: { type: 'INDIVIDUAL' } }), reviewMs: 10 });
      worker.use(...backend.handlers());
      backend.documents.push({ id: 'd-bank', type: 'BANK_STATEMENT', side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'old.pdf', contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
      backend.livenessDone = true;
      backend.startReview();
      await aTimeout(30);
      const el = await mount();
      await atStep(el, 'status');
      await waitUntil(() => q(el, '[data-testid="rejected-documents"]'));
      expect(text(el, '[data-testid="rejected-documents"]')).to.equal('Bank statement: A document is too old.');
      expect($(el, '[data-testid="reupload"]').getAttribute('types')).to.equal('BANK_STATEMENT');
    });
  });

  describe('additional information', () => {
    it('server problems land on the field they name, and focus goes there', async () => {
      const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL' }) });
      worker.use(...backend.handlers());
      const el = await mount();
      await atStep(el, 'info');
      await fillIndividualInfo(el);
      // A number the server refuses (shape fine here, refused there): the fake refuses anything without +.
      const { http } = await import('msw');
      const { problemResponse } = await import('../mocks/bff-scenarios');
      worker.use(
        http.patch('*/bff/customer/additional-information', () =>
          problemResponse(400, 'VALIDATION_FAILED', 'phone: is not a valid phone number', { errors: [{ path: 'phone', message: 'is not a valid phone number' }] }),
        ),
      );
      await click(el, '[data-testid="info-submit"]');
      await waitUntil(() => q(el, '[data-testid="info-phone-error"]'));
      expect(text(el, '[data-testid="info-phone-error"]')).to.equal('This value was not accepted.');
      expect(focusedId(el)).to.equal('info-phone');
      expect($(el, '#info-phone').getAttribute('aria-invalid')).to.equal('true');
      await expect(el).to.be.accessible();
    });

    it('client checks show after submitting: at least one choice, amounts, phone', async () => {
      worker.use(...new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL' }) }).handlers());
      const el = await mount();
      await atStep(el, 'info');
      await fill(el, 'info-phone', '123');
      await fill(el, 'info-monthlyVolumeInUSD', '12.345.67');
      await click(el, '[data-testid="info-submit"]');
      expect(text(el, '[data-testid="info-phone-error"]')).to.contain('8 to 15 digits');
      expect(text(el, '[data-testid="info-monthlyVolumeInUSD-error"]')).to.equal('Enter an amount such as 2,500.00.');
      expect(text(el, '[data-testid="info-jurisdictions-error"]')).to.equal('Choose at least one.');
      expect(focusedId(el)).to.equal('info-phone');
      expect(text(el, '[role="status"]')).to.match(/fields need your attention/);
    });

    it('is filled in and sent with the keyboard alone', async () => {
      const log = new RequestLog();
      worker.use(...new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', name: 'Ana Souza' }), log }).handlers());
      const el = await mount();
      await atStep(el, 'info');
      const focused = () => el.shadowRoot!.activeElement as HTMLElement | null;
      const tabTo = async (id: string) => {
        for (let i = 0; i < 40 && focused()?.id !== id; i++) await sendKeys({ press: 'Tab' });
        expect(focused()?.id, `focus should reach #${id}`).to.equal(id);
      };
      $(el, '#info-firstName').focus();
      await tabTo('info-phone');
      await sendKeys({ type: '11987654321' });
      await tabTo('info-address-line1');
      await sendKeys({ type: 'Rua das Flores, 10' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'Recife' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'PE' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: '50000-000' });
      await sendKeys({ press: 'Tab' });
      expect(focused()?.id).to.equal('info-professionalSituation');
      await sendKeys({ press: 'ArrowDown' }); // Employee
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: 'Teacher' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ press: 'ArrowDown' }); // Salary
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: '1500' });
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: '300' });
      await sendKeys({ press: 'Tab' });
      expect(focused()?.dataset.testid).to.equal('jurisdictions-BRA');
      await sendKeys({ press: 'Space' });
      await tabTo('info-involvedActivities-0');
      await sendKeys({ press: 'Space' }); // None of these
      await tabTo('info-transactionCounterparties-0');
      await sendKeys({ press: 'Space' }); // My own accounts
      for (let i = 0; i < 10 && focused()?.dataset.testid !== 'info-submit'; i++) await sendKeys({ press: 'Tab' });
      expect(focused()?.dataset.testid).to.equal('info-submit');
      await sendKeys({ press: 'Enter' });
      await atStep(el, 'documents');
      expect(log.entries.find((e) => e.method === 'PATCH')!.body).to.deep.equal({
        type: 'INDIVIDUAL',
        firstName: 'Ana',
        middleName: '',
        lastName: 'Souza',
        phone: '+5511987654321',
        address: { country: 'BRA', line1: 'Rua das Flores, 10', city: 'Recife', state: 'PE', postalCode: '50000-000' },
        monthlyVolumeInUSD: '1500',
        transactionVolumeInUSD: '300',
        jurisdictions: ['BRA'],
        involvedActivities: ['NONE'],
        transactionCounterparties: ['SELF'],
        professionalSituation: 'EMPLOYEE',
        professionalOccupation: 'Teacher',
        sourceOfFunds: 'EMPLOYMENT',
      });
      expect(focusedId(el), 'focus follows to the next step').to.equal('step-title');
    });
  });

  describe('languages', () => {
    it('the KYC steps speak Brazilian Portuguese, amounts in the Brazilian format', async () => {
      const backend = businessBackend('11222333000180');
      const el = await mount(html`<ramp-onboarding session="s" api-base="/bff" lang="pt-BR"></ramp-onboarding>`);
      await atStep(el, 'info');
      expect(text(el, '#step-title')).to.equal('Sobre a sua empresa');
      expect(text(el, 'label[for="info-annualRevenue"]')).to.equal('Faturamento anual');
      expect(text(el, '[data-testid="info-submit"]')).to.equal('Salvar e continuar');
      expect(text(el, '[aria-current="step"]')).to.contain('Sobre a empresa');
      await fill(el, 'info-annualRevenue', '1234567,8');
      $(el, '#info-annualRevenue').dispatchEvent(new FocusEvent('blur'));
      await el.updateComplete;
      expect($(el, '#info-annualRevenue').value).to.equal('1.234.567,80');
      await click(el, '[data-testid="info-submit"]');
      expect(text(el, '[data-testid="info-jurisdictions-error"]')).to.equal('Escolha pelo menos uma opção.');
      await expect(el).to.be.accessible();
      backend.customer = { ...backend.customer!, additionalInformation: { type: 'BUSINESS' } };
      const next = await mount(html`<ramp-onboarding session="s2" api-base="/bff" lang="pt-BR"></ramp-onboarding>`);
      await atStep(next, 'parties');
      expect(text(next, '#step-title')).to.equal('Sócios e representantes');
      await click(next, '[data-testid="parties-continue"]');
      expect(text(next, '[data-testid="parties-continue-error"]')).to.equal('Inclua pelo menos um sócio ou representante antes de continuar.');
    });
  });
});
