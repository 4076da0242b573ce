// <ramp-document-uploader> in Chromium: checks before sending, real progress, retry with the same key, cancel, front and back, server problems per file, parties.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/define';
import type { RampDocumentUploader } from '../../../src/components/document-uploader/document-uploader';
import type { RampDocumentUploadedEvent } from '../../../src/events';
import type { AssociatedParty, Document } from '../../../src/contract/kyc';
import { KycBackend, kycCustomer, RequestLog, sampleFiles } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { FakeXhr, installFakeXhr } from '../support/fake-xhr';

// ── helpers ──

const $ = <T extends Element = HTMLElement>(el: RampDocumentUploader, selector: string): T => {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const all = (el: RampDocumentUploader, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
/** Booleans and strings in assertions: a failing assertion on a DOM node makes the runner serialize it, which can take the browser down. */
const absent = (el: RampDocumentUploader, selector: string) => el.shadowRoot!.querySelector(selector) === null;
const focusedTestId = (el: RampDocumentUploader) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.testid;

/** A customer who has sent additional information, so documents are accepted. */
function individualBackend(log?: RequestLog): KycBackend {
  const customer = kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } });
  const backend = new KycBackend({ customer, ...(log ? { log } : {}) });
  worker.use(...backend.handlers());
  return backend;
}

async function mount(template = html`<ramp-document-uploader api-base="/bff" session="s" lang="en"></ramp-document-uploader>`) {
  const el = await fixture<RampDocumentUploader>(template);
  await waitUntil(() => el.shadowRoot!.querySelector('[part="requirement"]') || el.shadowRoot!.querySelector('[data-testid="nothing-needed"]'), 'requirements should load');
  return el;
}

/** What the file picker would do: put files on the zone's input and fire `change`. */
async function pick(el: RampDocumentUploader, zone: string, ...files: File[]): Promise<void> {
  const input = $<HTMLInputElement>(el, `[data-testid="input-${zone}"]`);
  const transfer = new DataTransfer();
  for (const f of files) transfer.items.add(f);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

function uploadedEvents(target: EventTarget): RampDocumentUploadedEvent[] {
  const events: RampDocumentUploadedEvent[] = [];
  target.addEventListener('ramp-document-uploaded', (e) => events.push(e as RampDocumentUploadedEvent));
  return events;
}

const posts = (log: RequestLog) => log.entries.filter((e) => e.method === 'POST');

function fakeDocument(over: Partial<Document>): Document {
  return {
    id: '01936f2a-0000-7000-8000-0000000000d1',
    type: 'BANK_STATEMENT',
    side: null,
    country: null,
    associatedPartyId: null,
    status: 'SENT',
    comment: null,
    rejectLabels: [],
    fileName: 'old.pdf',
    contentType: 'application/pdf',
    size: 1234,
    sha256: '0'.repeat(64),
    createdAt: new Date().toISOString(),
    ...over,
  };
}

// ── tests ──

describe('<ramp-document-uploader>', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  describe('accessibility', () => {
    it('the requirement list, with a refused file and a sent document, has no axe violations', async () => {
      const backend = individualBackend();
      backend.documents.push(fakeDocument({ status: 'REJECTED', comment: 'Too old.' }));
      const el = await mount();
      await expect(el).to.be.accessible();
      await pick(el, 'BANK_STATEMENT', sampleFiles.fakePdf());
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'));
      await expect(el).to.be.accessible();
    });

    it('every file control is reachable by a labelled button, and the file inputs stay out of the tab order', async () => {
      individualBackend();
      const el = await mount();
      for (const button of all(el, '[part~="choose"], [part~="camera"]')) {
        expect(button.textContent?.trim(), 'visible label').to.match(/\S/);
        expect(button.getAttribute('aria-describedby'), 'names its zone').to.match(/^zone-/);
      }
      for (const input of all(el, 'input[type="file"]')) expect(input.hidden).to.equal(true);
    });
  });

  describe('what is required', () => {
    it('lists the customer’s document requirements with their status, and the documents sent with why they were refused in our words, never the reviewer’s note', async () => {
      const backend = individualBackend();
      backend.documents.push(fakeDocument({ status: 'REJECTED', comment: 'The bank statement must be from the last 6 months.', rejectLabels: ['DOCUMENT_OUTDATED'] }));
      const el = await mount();
      expect(all(el, '[part="requirement"]').map((r) => r.dataset.requirement)).to.deep.equal(['ID_CARD', 'BANK_STATEMENT']);
      expect($(el, '[data-testid="status-ID_CARD"]').textContent).to.contain('Not sent');
      expect($(el, '[data-testid="status-BANK_STATEMENT"]').dataset.status).to.equal('REJECTED');
      const doc = $(el, '[data-testid="documents-BANK_STATEMENT"] [part="document"]');
      expect(doc.dataset.status).to.equal('REJECTED');
      expect($(el, '[data-testid="comment"]').textContent!.trim()).to.equal('Why: A document is too old.');
      expect(el.shadowRoot!.textContent).not.to.contain('must be from the last 6 months');
    });

    it('`types` narrows the list to the named requirements (a document type names its requirement)', async () => {
      individualBackend();
      const el = await mount(html`<ramp-document-uploader api-base="/bff" session="s" lang="en" types="PASSPORT"></ramp-document-uploader>`);
      expect(all(el, '[part="requirement"]').map((r) => r.dataset.requirement)).to.deep.equal(['ID_CARD']);
    });

    it('an ID card asks for front and back; a passport for one file', async () => {
      individualBackend();
      const el = await mount();
      expect(all(el, '[data-requirement="ID_CARD"] [part="dropzone"]').map((z) => z.dataset.side)).to.deep.equal(['FRONT_SIDE', 'BACK_SIDE']);
      $<HTMLInputElement>(el, '[data-testid="type-PASSPORT"]').click();
      await el.updateComplete;
      const zones = all(el, '[data-requirement="ID_CARD"] [part="dropzone"]');
      expect(zones.map((z) => z.dataset.type)).to.deep.equal(['PASSPORT']);
      expect(zones[0]!.dataset.side).to.equal(undefined);
    });

    it('for an associated party, shows the party’s own requirements and sends its id with the file', async () => {
      const log = new RequestLog();
      const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', additionalInformation: { type: 'BUSINESS' } }), log });
      const party = { id: '01936f2a-0000-7000-8000-00000000a001', type: 'BUSINESS', roles: ['SHAREHOLDER'] } as AssociatedParty;
      backend.parties.push({ ...party, customerId: backend.customer!.id, parentId: null, ownershipPercentage: '40.00', legalName: 'Holding SA', taxId: '11444777000161', email: 'h@example.com', address: { country: 'BRA', line1: 'x', city: 'y', state: 'SP', postalCode: '0' }, verification: { status: 'NOT_STARTED', level: 'STANDARD' }, requirements: [], createdAt: new Date().toISOString() });
      worker.use(...backend.handlers());
      const el = await mount(html`<ramp-document-uploader api-base="/bff" session="s" lang="en" associated-party-id=${party.id}></ramp-document-uploader>`);
      expect(all(el, '[part="requirement"]').map((r) => r.dataset.requirement)).to.deep.equal(['INCORPORATION_ARTICLES', 'DIRECTORS_REGISTRY']);
      await pick(el, 'DIRECTORS_REGISTRY', sampleFiles.pdf('directors.pdf'));
      await waitUntil(() => backend.documents.length === 1, 'the document should be stored');
      expect(backend.documents[0]).to.include({ type: 'DIRECTORS_REGISTRY', associatedPartyId: party.id });
      // The answer reaches the component after the backend stored the file: wait for the render, not a fixed time.
      await waitUntil(() => $(el, '[data-testid="status-DIRECTORS_REGISTRY"]').dataset.status === 'SENT', 'the requirement should show SENT');
    });
  });

  describe('the issuing country of identity documents', () => {
    it('an ID card and a passport are sent with their country (default the customer\'s), other documents without one', async () => {
      const log = new RequestLog();
      const customer = kycCustomer({ type: 'INDIVIDUAL', country: 'PRT', taxId: '123456789', additionalInformation: { type: 'INDIVIDUAL' } });
      const backend = new KycBackend({ customer, log });
      worker.use(...backend.handlers());
      const el = await mount();
      const select = $<HTMLSelectElement>(el, '[data-testid="country-ID_CARD"]');
      expect(select.value, "the customer's country first").to.equal('PRT');
      expect($(el, 'label[for="country-ID_CARD"]').textContent?.trim()).to.equal('Issuing country');
      await pick(el, 'ID_CARD-FRONT_SIDE', sampleFiles.jpg('front.jpg'));
      await waitUntil(() => backend.documents.length === 1, 'front stored');
      select.value = 'ESP';
      select.dispatchEvent(new Event('change'));
      $<HTMLInputElement>(el, '[data-testid="type-PASSPORT"]').click();
      await el.updateComplete;
      await pick(el, 'PASSPORT', sampleFiles.jpg('passport.jpg'));
      await pick(el, 'BANK_STATEMENT', sampleFiles.pdf('statement.pdf'));
      await waitUntil(() => backend.documents.length === 3, 'all stored');
      expect(backend.documents.map((d) => [d.type, d.country])).to.deep.equal([
        ['ID_CARD', 'PRT'],
        ['PASSPORT', 'ESP'],
        ['BANK_STATEMENT', null],
      ]);
      const statement = posts(log).find((e) => String(e.body).includes('statement.pdf'))!;
      expect(String(statement.body)).not.to.include('name="country"');
      expect(absent(el, '[data-requirement="BANK_STATEMENT"] select')).to.equal(true);
    });

    it('a retry after a network failure sends the country chosen when the file was picked', async () => {
      const log = new RequestLog();
      const backend = individualBackend(log);
      const el = await mount();
      $<HTMLInputElement>(el, '[data-testid="type-PASSPORT"]').click();
      await el.updateComplete;
      const select = $<HTMLSelectElement>(el, '[data-testid="country-ID_CARD"]');
      select.value = 'ARG';
      select.dispatchEvent(new Event('change'));
      backend.failUploads.push('network');
      await pick(el, 'PASSPORT', sampleFiles.jpg('passport.jpg'));
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="retry"]'), 'the retry button');
      select.value = 'BRA';
      select.dispatchEvent(new Event('change'));
      $(el, '[data-testid="retry"]').click();
      await waitUntil(() => backend.documents.length === 1, 'stored on retry');
      expect(backend.documents[0]).to.include({ type: 'PASSPORT', country: 'ARG' });
    });
  });

  describe('optional documents', () => {
    it('an individual is offered an income tax return, a proof of address and other documents, below the required ones', async () => {
      const log = new RequestLog();
      const backend = individualBackend(log);
      const el = await mount();
      await expect(el).to.be.accessible();
      expect(all(el, '[part="requirement"]').map((r) => r.dataset.requirement), 'the required ones are unchanged').to.deep.equal(['ID_CARD', 'BANK_STATEMENT']);
      const choice = $<HTMLSelectElement>(el, '[data-testid="optional-type"]');
      expect([...choice.options].map((o) => o.value)).to.deep.equal(['INCOME_TAX_RETURN', 'DELIVERY_RECEIPT', 'OTHER']);
      expect($(el, '#optional-title').textContent?.trim()).to.equal('Other documents (optional)');
      choice.value = 'DELIVERY_RECEIPT';
      choice.dispatchEvent(new Event('change'));
      await el.updateComplete;
      expect($(el, '#optional-type-hint').textContent).to.contain('last calendar year');
      await pick(el, 'DELIVERY_RECEIPT', sampleFiles.pdf('electricity-bill.pdf'));
      await waitUntil(() => backend.documents.length === 1, 'stored');
      expect(backend.documents[0]).to.include({ type: 'DELIVERY_RECEIPT', fileName: 'electricity-bill.pdf', country: null });
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="documents-OPTIONAL"] [part="document"]'), 'listed as sent');
      expect($(el, '[data-testid="documents-OPTIONAL"] [part="document"]').dataset.type).to.equal('DELIVERY_RECEIPT');
    });

    it('a business is offered its own optional documents; the regulated-activity licence only when its activity is regulated', async () => {
      const business = (regulated: boolean) => {
        const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', additionalInformation: { type: 'BUSINESS', isRegulatedActivity: regulated } }) });
        worker.use(...backend.handlers());
      };
      business(false);
      const plain = await mount();
      expect([...$<HTMLSelectElement>(plain, '[data-testid="optional-type"]').options].map((o) => o.value)).to.deep.equal([
        'POWER_OF_ATTORNEY',
        'SIGNED_BALANCE_SHEET',
        'SIGNED_CORPORATE_STRUCTURE_CHART',
        'SIGNED_INCOME_STATEMENT',
        'OTHER',
      ]);
      worker.resetHandlers();
      business(true);
      const regulated = await mount();
      expect([...$<HTMLSelectElement>(regulated, '[data-testid="optional-type"]').options].map((o) => o.value)).to.include('REGULATED_ACTIVITY_DOCUMENT');
    });

    it('an associated party, or a list narrowed by `types`, has no optional documents', async () => {
      individualBackend();
      const narrowed = await mount(html`<ramp-document-uploader api-base="/bff" session="s" lang="en" types="BANK_STATEMENT"></ramp-document-uploader>`);
      expect(absent(narrowed, '[data-testid="optional-documents"]')).to.equal(true);
      worker.resetHandlers();
      const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', additionalInformation: { type: 'BUSINESS' } }) });
      const party = { id: '01936f2a-0000-7000-8000-00000000a002', type: 'INDIVIDUAL', roles: ['UBO'] } as AssociatedParty;
      backend.parties.push({ ...party, customerId: backend.customer!.id, parentId: null, ownershipPercentage: '60.00', name: 'Ana Souza', taxId: '52998224725', birthDate: '1990-05-17', email: 'a@example.com', address: { country: 'ARG', line1: 'x', city: 'y', state: 'BA', postalCode: '0' }, verification: { status: 'NOT_STARTED', level: 'STANDARD' }, requirements: [], createdAt: new Date().toISOString() } as AssociatedParty);
      worker.use(...backend.handlers());
      const el = await mount(html`<ramp-document-uploader api-base="/bff" session="s" lang="en" associated-party-id=${party.id}></ramp-document-uploader>`);
      expect(absent(el, '[data-testid="optional-documents"]')).to.equal(true);
      expect($<HTMLSelectElement>(el, '[data-testid="country-ID_CARD"]').value, "the party's country").to.equal('ARG');
    });
  });

  describe('checks before sending', () => {
    it('a text file named .pdf is refused before anything is sent', async () => {
      const log = new RequestLog();
      individualBackend(log);
      const el = await mount();
      const events = uploadedEvents(el);
      await pick(el, 'BANK_STATEMENT', sampleFiles.fakePdf('statement.pdf'));
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'), 'the refusal should show');
      const error = $(el, '[data-testid="upload-error"]');
      expect(error.dataset.kind).to.equal('badType');
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.contain('not a JPG, PNG or PDF');
      expect(absent(el, '[data-testid="retry"]'), 'no retry: the same file would fail again').to.equal(true);
      await aTimeout(50);
      expect(posts(log)).to.have.length(0);
      expect(events).to.have.length(0);
    });

    it('a good file picked after a refused one takes its place: no error card outlives it', async () => {
      const backend = individualBackend();
      const el = await mount();
      await pick(el, 'BANK_STATEMENT', sampleFiles.fakePdf('statement.pdf'));
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'), 'the refusal should show');
      await pick(el, 'BANK_STATEMENT', sampleFiles.pdf('statement-2.pdf'));
      await waitUntil(() => backend.documents.length === 1, 'the good file is stored');
      await waitUntil(() => absent(el, '[data-testid="upload"]'), 'the finished upload gives way');
      expect(absent(el, '[data-testid="upload-error"]'), 'the old refusal is gone').to.equal(true);
      expect($(el, '[data-testid="sent-BANK_STATEMENT"]').textContent).to.contain('statement-2.pdf');
    });

    it('a file over 50 MB is refused before anything is sent (and is never read)', async () => {
      const log = new RequestLog();
      individualBackend(log);
      const el = await mount();
      const big = sampleFiles.pdf('huge.pdf');
      Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 + 1 });
      big.slice = () => {
        throw new Error('a file refused for its size must not be read');
      };
      await pick(el, 'BANK_STATEMENT', big);
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'));
      expect($(el, '[data-testid="upload-error"]').dataset.kind).to.equal('tooLarge');
      expect($(el, '[data-testid="upload-error"]').textContent).to.contain('larger than 50 MB');
      await aTimeout(50);
      expect(posts(log)).to.have.length(0);
    });

    it('a file of exactly 50 MB passes the size check', async () => {
      const { checkFile } = await import('../../../src/components/document-uploader/file-check');
      const file = sampleFiles.pdf();
      Object.defineProperty(file, 'size', { value: 50 * 1024 * 1024 });
      expect(await checkFile(file)).to.equal(undefined);
    });
  });

  describe('uploading', () => {
    it('sends type and side before the file, with the session and an Idempotency-Key, and lists the stored document', async () => {
      const log = new RequestLog();
      const backend = individualBackend(log);
      const el = await mount();
      const events = uploadedEvents(document);
      await pick(el, 'ID_CARD-FRONT_SIDE', sampleFiles.jpg('front.jpg'));
      await waitUntil(() => backend.documents.length === 1, 'front stored');
      await pick(el, 'ID_CARD-BACK_SIDE', sampleFiles.png('back.png'));
      await waitUntil(() => backend.documents.length === 2, 'back stored');
      expect(backend.documents.map((d) => [d.type, d.side, d.fileName])).to.deep.equal([
        ['ID_CARD', 'FRONT_SIDE', 'front.jpg'],
        ['ID_CARD', 'BACK_SIDE', 'back.png'],
      ]);
      const [front] = posts(log);
      expect(front!.headers.authorization).to.equal('Bearer s');
      expect(front!.headers['idempotency-key']).to.match(/^[0-9a-f-]{36}$/);
      const raw = String(front!.body);
      const at = (name: string) => raw.indexOf(`name="${name}"`);
      expect(at('type')).to.be.greaterThan(-1);
      expect(at('type')).to.be.lessThan(at('side'));
      expect(at('side')).to.be.lessThan(at('file'));
      await waitUntil(() => events.length === 2);
      expect(events.map((e) => [e.detail.side, e.bubbles, e.composed])).to.deep.equal([
        ['FRONT_SIDE', true, true],
        ['BACK_SIDE', true, true],
      ]);
      await el.updateComplete;
      expect($(el, '[data-testid="sent-ID_CARD-FRONT_SIDE"]').textContent).to.contain('front.jpg');
      expect($(el, '[data-testid="sent-ID_CARD-BACK_SIDE"]').textContent).to.contain('back.png');
      expect(all(el, '[data-testid="upload"]')).to.have.length(0);
    });

    it('a file dropped on a zone is uploaded there', async () => {
      const backend = individualBackend();
      const el = await mount();
      const zone = $(el, '[data-testid="dropzone-BANK_STATEMENT"]');
      const transfer = new DataTransfer();
      transfer.items.add(sampleFiles.pdf('dropped.pdf'));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      await el.updateComplete;
      expect(zone.hasAttribute('data-over'), 'the zone shows it takes the drop').to.equal(true);
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      await waitUntil(() => backend.documents.length === 1);
      expect(backend.documents[0]).to.include({ type: 'BANK_STATEMENT', side: null, fileName: 'dropped.pdf' });
    });

    it('the progress bar follows the real upload progress, then the row gives way to the stored document', async () => {
      individualBackend();
      const el = await mount();
      const restore = installFakeXhr();
      try {
        await pick(el, 'BANK_STATEMENT', sampleFiles.pdf('march.pdf'));
        await waitUntil(() => FakeXhr.instances.length === 1, 'the XHR should be sent');
        const xhr = FakeXhr.instances[0]!;
        expect(xhr.method).to.equal('POST');
        expect(xhr.url).to.equal('/bff/customer/documents');
        expect([...xhr.body!.keys()]).to.deep.equal(['type', 'file']);
        await el.updateComplete;
        const bar = () => $<HTMLProgressElement>(el, '[data-testid="progress"]');
        expect(bar().value).to.equal(0);
        expect(bar().max).to.equal(100);
        expect(bar().getAttribute('aria-labelledby')).to.match(/^upload-\d+-name$/);
        xhr.progress(25, 100);
        await el.updateComplete;
        expect(bar().value).to.equal(25);
        expect(bar().getAttribute('aria-valuenow')).to.equal('25');
        expect(bar().getAttribute('aria-valuetext')).to.equal('25%');
        xhr.progress(100, 100);
        await el.updateComplete;
        expect(bar().value).to.equal(100);
        await expect(el).to.be.accessible();
        xhr.respond(201, fakeDocument({ id: '01936f2a-0000-7000-8000-0000000000d9', fileName: 'march.pdf' }));
        await waitUntil(() => absent(el, '[data-testid="progress"]'), 'the finished upload gives way');
        // Its zone says it was sent, once: the list below holds only files no zone stands for.
        expect($(el, '[data-testid="sent-BANK_STATEMENT"]').textContent).to.contain('march.pdf');
        expect(absent(el, '[data-testid="documents-BANK_STATEMENT"]'), 'not listed a second time').to.equal(true);
      } finally {
        restore();
      }
    });

    it('cancel aborts the upload: no document, no event, focus back on the zone', async () => {
      individualBackend();
      const el = await mount();
      const events = uploadedEvents(el);
      const restore = installFakeXhr();
      try {
        await pick(el, 'BANK_STATEMENT', sampleFiles.pdf());
        await waitUntil(() => FakeXhr.instances.length === 1);
        await el.updateComplete;
        $(el, '[data-testid="cancel"]').click();
        await el.updateComplete;
        expect(FakeXhr.instances[0]!.aborted).to.equal(true);
        expect(all(el, '[data-testid="upload"]')).to.have.length(0);
        await el.updateComplete;
        expect(focusedTestId(el)).to.equal('choose-BANK_STATEMENT');
        expect(events).to.have.length(0);
      } finally {
        restore();
      }
    });

    it('after a network failure, retry sends the same file with the same Idempotency-Key', async () => {
      const backend = individualBackend();
      backend.failUploads = ['network'];
      const el = await mount();
      const events = uploadedEvents(el);
      await pick(el, 'BANK_STATEMENT', sampleFiles.pdf());
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'), 'the failure should show');
      expect($(el, '[data-testid="upload-error"]').dataset.kind).to.equal('network');
      $(el, '[data-testid="retry"]').click();
      await waitUntil(() => backend.documents.length === 1, 'the retry should store the document');
      expect(backend.uploadKeys).to.have.length(2);
      expect(new Set(backend.uploadKeys).size).to.equal(1);
      await waitUntil(() => events.length === 1);
    });

    it('after a 503, retry goes through with the same key; a 5xx is not the user’s fault', async () => {
      const backend = individualBackend();
      backend.failUploads = [503];
      const el = await mount();
      await pick(el, 'BANK_STATEMENT', sampleFiles.pdf());
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'));
      expect($(el, '[data-testid="upload-error"]').textContent).to.contain('Something went wrong on our side (SERVER_ERROR)');
      $(el, '[data-testid="retry"]').click();
      await waitUntil(() => backend.documents.length === 1);
      expect(new Set(backend.uploadKeys).size).to.equal(1);
    });
  });

  describe('server problems, per file', () => {
    const cases = [
      [413, 'tooLarge', 'larger than 50 MB'],
      [415, 'badType', 'not a JPG, PNG or PDF'],
      [409, 'needsInfo', 'Send your additional information first'],
      ['full', 'full', 'no room for more documents'],
      [400, 'invalid', 'This upload was refused. Check the file and its details, then try again.'],
    ] as const;
    for (const [status, kind, text] of cases) {
      it(`a ${status === 'full' ? '409 DOCUMENT_QUOTA_EXCEEDED' : status} is shown on its file, without a retry that could not help`, async () => {
        const backend = individualBackend();
        backend.failUploads = [status];
        const el = await mount();
        await pick(el, 'BANK_STATEMENT', sampleFiles.pdf('a.pdf'), sampleFiles.pdf('b.pdf'));
        // The stored file's row leaves the list once its answer is rendered; the refused one stays with its error.
        await waitUntil(
          () => backend.documents.length === 1 && el.shadowRoot!.querySelector('[data-testid="upload-error"]') && all(el, '[data-testid="upload"]').length === 1,
          'one fails, one is stored',
        );
        const rows = all(el, '[data-testid="upload"]');
        expect(rows).to.have.length(1);
        expect(rows[0]!.querySelector('[data-testid="upload-error"]')!.getAttribute('data-kind')).to.equal(kind);
        expect(rows[0]!.textContent).to.contain(text);
        expect(rows[0]!.querySelector('[data-testid="retry"]') === null, 'no retry').to.equal(true);
        rows[0]!.querySelector<HTMLElement>('[data-testid="remove"]')!.click();
        await el.updateComplete;
        expect(all(el, '[data-testid="upload"]')).to.have.length(0);
      });
    }
  });

  describe('languages and keyboard', () => {
    it('speaks Brazilian Portuguese with lang="pt-BR"', async () => {
      individualBackend();
      const el = await mount(html`<ramp-document-uploader api-base="/bff" session="s" lang="pt-BR"></ramp-document-uploader>`);
      expect($(el, '#req-BANK_STATEMENT-title').textContent?.trim()).to.equal('Extrato bancário');
      expect($(el, '[data-testid="choose-BANK_STATEMENT"]').textContent?.trim()).to.equal('Escolher arquivo');
      expect($(el, '[data-testid="dropzone-ID_CARD-BACK_SIDE"] .dropzone-label').textContent?.trim()).to.equal('RG, verso');
      expect($(el, '[data-testid="status-BANK_STATEMENT"]').textContent).to.contain('Não enviado');
    });

    it('Enter on "choose a file" opens the picker of its own zone', async () => {
      individualBackend();
      const el = await mount();
      const input = $<HTMLInputElement>(el, '[data-testid="input-BANK_STATEMENT"]');
      let opened = 0;
      input.click = () => void opened++;
      $(el, '[data-testid="choose-BANK_STATEMENT"]').focus();
      await sendKeys({ press: 'Enter' });
      expect(opened).to.equal(1);
    });
  });
});
