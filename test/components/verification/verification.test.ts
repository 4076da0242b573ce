// <ramp-verification> (the hosted page) in Chromium: what is required, the selfie from the camera or a file, the sandbox shortcut, the outcome.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define';
import type { RampVerification } from '../../../src/components/verification/verification';
import type { RampVerificationChangedEvent } from '../../../src/events';
import { KycBackend, kycCustomer, RequestLog, sampleFiles } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { fakeCamera, refusedCamera } from '../support/fake-camera';

// ── helpers ──

const q = <T extends Element = HTMLElement>(el: RampVerification, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLElement>(el: RampVerification, selector: string): T => {
  const found = q<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered`);
  return found;
};
const text = (el: RampVerification, selector: string) => q(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();

/** An individual who sent everything but the selfie, behind the hosted page's API. */
function hostedBackend(options: { log?: RequestLog; documents?: boolean } = {}): KycBackend {
  const backend = new KycBackend({
    base: '*/verify/api',
    customer: kycCustomer({ type: 'INDIVIDUAL', taxId: '52998224725', additionalInformation: { type: 'INDIVIDUAL' } }),
    reviewMs: 100,
    ...(options.log ? { log: options.log } : {}),
  });
  if (options.documents !== false) {
    for (const type of ['PASSPORT', 'BANK_STATEMENT'] as const) {
      backend.documents.push({ id: `d-${type}`, type, side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: `${type}.pdf`, contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
    }
  }
  worker.use(...backend.handlers());
  return backend;
}

async function mount(template = html`<ramp-verification api-base="/verify/api" session="link-token" lang="en"></ramp-verification>`) {
  const el = await fixture<RampVerification>(template);
  el.pollIntervalMs = 40;
  await waitUntil(() => q(el, '[data-testid="verification-status"]'), 'the verification should load');
  return el;
}

async function pickSelfie(el: RampVerification, file: File): Promise<void> {
  const input = $<HTMLInputElement>(el, '[data-testid="selfie-file"]');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change'));
  await aTimeout(0);
  await el.updateComplete;
}

// ── tests ──

describe('<ramp-verification>', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  it('shows whose verification it is, its status and what is still required, and has no axe violations', async () => {
    hostedBackend({ documents: false });
    const el = await mount();
    expect(text(el, '[data-testid="customer-name"]')).to.equal('Verification of Ana Souza');
    expect(text(el, '[data-testid="verification-status"]')).to.equal('Not started');
    const items = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-testid="requirements"] li')].map((li) => [li.dataset.requirement, li.dataset.status]);
    expect(items).to.deep.equal([
      ['ADDITIONAL_INFORMATION', 'SENT'],
      ['ID_CARD', 'NOT_SENT'],
      ['BANK_STATEMENT', 'NOT_SENT'],
      ['LIVENESS', 'NOT_SENT'],
    ]);
    const uploader = $(el, '[data-testid="uploader"]');
    expect(uploader.getAttribute('api-base')).to.equal('/verify/api');
    expect(uploader.getAttribute('session')).to.equal('link-token');
    expect(uploader.getAttribute('types')).to.equal('ID_CARD BANK_STATEMENT');
    expect(q(el, '[data-testid="simulate-liveness"]') === null, 'no sandbox button outside sandbox').to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('a selfie from the front camera: live preview, capture to JPEG, camera off, upload, then the review is followed to APPROVED', async () => {
    const log = new RequestLog();
    const backend = hostedBackend({ log });
    const camera = fakeCamera();
    try {
      const el = await mount();
      const changed: RampVerificationChangedEvent[] = [];
      el.addEventListener('ramp-verification-changed', (e) => changed.push(e));
      $(el, '[data-testid="start-camera"]').click();
      await waitUntil(() => q(el, '[data-testid="liveness"]')?.dataset.phase === 'preview', 'the preview should start');
      expect(camera.calls).to.deep.equal([{ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false }]);
      const video = $<HTMLVideoElement>(el, '[data-testid="video"]');
      await waitUntil(() => video.srcObject === camera.stream, 'the stream should play in the video');
      expect(video.muted && video.autoplay && video.playsInline).to.equal(true);
      await expect(el).to.be.accessible();

      $(el, '[data-testid="capture"]').click();
      await waitUntil(() => q(el, '[data-testid="selfie"]'), 'the captured photo should show');
      expect(camera.stream.getVideoTracks().every((t) => t.readyState === 'ended'), 'the camera is off once the photo is taken').to.equal(true);
      expect($<HTMLImageElement>(el, '[data-testid="selfie"]').alt).to.equal('Your selfie');
      expect((el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.testid).to.equal('use-photo');

      $(el, '[data-testid="use-photo"]').click();
      await waitUntil(() => backend.livenessDone, 'the selfie should be uploaded');
      const sent = log.entries.find((e) => e.url.endsWith('/verify/api/customer/liveness'))!;
      expect(sent.headers.authorization).to.equal('Bearer link-token');
      expect(sent.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
      expect(String(sent.body)).to.contain('name="file"; filename="selfie.jpg"').and.to.contain('Content-Type: image/jpeg');
      await waitUntil(() => q(el, '[data-testid="outcome"]')?.dataset.status === 'APPROVED', 'the review should be followed to its outcome', { timeout: 4000 });
      expect(text(el, '[data-testid="outcome-message"]')).to.equal('Your account is verified. You can now buy and sell stablecoins.');
      expect(changed.map((e) => e.detail.status)).to.deep.equal(['UNDER_VERIFICATION', 'APPROVED']);
      await expect(el).to.be.accessible();
    } finally {
      camera.restore();
    }
  });

  it('leaving the page stops the camera', async () => {
    hostedBackend();
    const camera = fakeCamera();
    try {
      const el = await mount();
      $(el, '[data-testid="start-camera"]').click();
      await waitUntil(() => q(el, '[data-testid="liveness"]')?.dataset.phase === 'preview');
      expect(camera.stream.getVideoTracks()[0]!.readyState).to.equal('live');
      el.remove();
      expect(camera.stream.getVideoTracks()[0]!.readyState).to.equal('ended');
    } finally {
      camera.restore();
    }
  });

  it('with camera permission refused, a selfie photo file does instead', async () => {
    const backend = hostedBackend();
    const restore = refusedCamera('NotAllowedError');
    try {
      const el = await mount();
      $(el, '[data-testid="start-camera"]').click();
      await waitUntil(() => q(el, '[data-testid="file-fallback"]'), 'the file fallback should show');
      expect($(el, '[data-testid="selfie-error"]').dataset.kind).to.equal('denied');
      expect(text(el, '[data-testid="selfie-error"]')).to.contain('Camera access was refused');
      expect(el.shadowRoot!.activeElement?.id).to.equal('selfie-file');
      const input = $<HTMLInputElement>(el, '[data-testid="selfie-file"]');
      expect([input.accept, input.getAttribute('capture')]).to.deep.equal(['image/jpeg,image/png', 'user']);
      await expect(el).to.be.accessible();
      await pickSelfie(el, sampleFiles.pdf('selfie.pdf'));
      // The type is read from the file's bytes, which takes a moment: waited for, not assumed after a pause.
      await waitUntil(() => q(el, '[data-testid="selfie-error"]')?.dataset.kind === 'badType', 'a PDF is no selfie, refused before sending');
      await pickSelfie(el, sampleFiles.png('me.png'));
      await waitUntil(() => q(el, '[data-testid="use-photo"]'));
      $(el, '[data-testid="use-photo"]').click();
      await waitUntil(() => backend.livenessDone, 'the photo should be uploaded');
      expect(backend.uploadKeys).to.have.length(1);
    } finally {
      restore();
    }
  });

  it('with no camera at all, the file input is offered from the start', async () => {
    hostedBackend();
    const mediaDevices = Object.getOwnPropertyDescriptor(Navigator.prototype, 'mediaDevices')!;
    Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
    try {
      const el = await mount();
      expect(q(el, '[data-testid="start-camera"]') === null).to.equal(true);
      expect(q(el, '[data-testid="file-fallback"]') !== null).to.equal(true);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).mediaDevices;
      expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'mediaDevices')).to.deep.equal(mediaDevices);
    }
  });

  it('a failed selfie upload can be sent again with the same key', async () => {
    const backend = hostedBackend();
    backend.failUploads = ['network'];
    const restore = refusedCamera('NotFoundError');
    try {
      const el = await mount();
      $(el, '[data-testid="start-camera"]').click();
      await waitUntil(() => q(el, '[data-testid="file-fallback"]'));
      expect($(el, '[data-testid="selfie-error"]').dataset.kind).to.equal('unavailable');
      await pickSelfie(el, sampleFiles.jpg('me.jpg'));
      await waitUntil(() => q(el, '[data-testid="use-photo"]'));
      $(el, '[data-testid="use-photo"]').click();
      await waitUntil(() => q(el, '[data-testid="selfie-error"]')?.dataset.kind === 'network', 'the failure should show');
      $(el, '[data-testid="use-photo"]').click();
      await waitUntil(() => backend.livenessDone);
      expect(backend.uploadKeys).to.have.length(2);
      expect(new Set(backend.uploadKeys).size).to.equal(1);
    } finally {
      restore();
    }
  });

  it('in sandbox, a visible button simulates the liveness check', async () => {
    const log = new RequestLog();
    const backend = hostedBackend({ log });
    const el = await mount(html`<ramp-verification api-base="/verify/api" session="link-token" lang="en" sandbox></ramp-verification>`);
    const button = $(el, '[data-testid="simulate-liveness"]');
    expect(button.textContent?.trim()).to.equal('Simulate liveness (sandbox)');
    button.click();
    await waitUntil(() => backend.livenessDone);
    expect(log.entries.some((e) => e.method === 'POST' && e.url.endsWith('/verify/api/customer/liveness/simulate'))).to.equal(true);
    await waitUntil(() => q(el, '[data-testid="outcome"]'));
    expect(el.shadowRoot!.activeElement?.id, 'focus moves to the outcome').to.equal('outcome-title');
  });

  it('a business (no selfie) sees its documents and status; a temporary rejection asks for the rejected document', async () => {
    const backend = new KycBackend({ base: '*/verify/api', customer: kycCustomer({ type: 'BUSINESS', taxId: '11222333000182', additionalInformation: { type: 'BUSINESS' } }), reviewMs: 10 });
    worker.use(...backend.handlers());
    backend.documents.push({ id: 'd-dir', type: 'DIRECTORS_REGISTRY', side: null, country: null, associatedPartyId: null, status: 'SENT', comment: null, rejectLabels: [], fileName: 'directors.pdf', contentType: 'application/pdf', size: 1, sha256: '', createdAt: '' });
    backend.startReview();
    await aTimeout(30);
    const el = await mount();
    expect(q(el, '[data-testid="liveness"]') === null).to.equal(true);
    expect(q(el, '[data-testid="outcome"]')!.dataset.status).to.equal('TEMPORARY_REJECTION');
    expect($(el, '[data-testid="uploader"]').getAttribute('types')).to.equal('INCORPORATION_ARTICLES SHAREHOLDER_REGISTRY DIRECTORS_REGISTRY');
  });

  it('speaks Brazilian Portuguese', async () => {
    hostedBackend();
    const el = await mount(html`<ramp-verification api-base="/verify/api" session="link-token" lang="pt-BR" sandbox></ramp-verification>`);
    expect(text(el, '[part="title"]')).to.equal('Verificação de identidade');
    expect(text(el, '#liveness-title')).to.equal('Confirme que é você');
    expect(text(el, '[data-testid="start-camera"]')).to.equal('Ligar a câmera');
    expect(text(el, '[data-testid="simulate-liveness"]')).to.equal('Simular prova de vida (sandbox)');
    expect(text(el, '[data-testid="verification-status"]')).to.equal('Não iniciada');
  });

  it('after a final decision the hosted API answers the outcome alone, and the page shows just that', async () => {
    const { http, HttpResponse } = await import('msw');
    // The shape /verify/api/customer answers once APPROVED: no name, no requirements, nothing personal.
    worker.use(http.get('*/verify/api/customer', () => HttpResponse.json({ id: 'c-1', type: 'INDIVIDUAL', verification: { status: 'APPROVED', level: 'STANDARD' }, requirements: [] })));
    const el = await mount();
    expect(text(el, '[data-testid="verification-status"]')).to.equal('Approved');
    expect(q(el, '[data-testid="customer-name"]') === null, 'no name to show').to.equal(true);
    expect(q(el, '[data-testid="requirements"]') === null, 'no empty requirements list').to.equal(true);
    expect(q(el, '[data-testid="uploader"]') === null).to.equal(true);
    expect(q(el, '[data-testid="outcome"]')!.dataset.status).to.equal('APPROVED');
    await expect(el).to.be.accessible();
  });

  it('a link that is not valid says so, and tells the partner', async () => {
    const { http } = await import('msw');
    const { problemResponse } = await import('../mocks/bff-scenarios');
    worker.use(http.get('*/verify/api/customer', () => problemResponse(401, 'UNAUTHENTICATED', 'The verification link is not valid.')));
    const errors: Event[] = [];
    document.addEventListener('ramp-error', (e) => errors.push(e), { once: true });
    const el = await fixture<RampVerification>(html`<ramp-verification api-base="/verify/api" session="bad" lang="en"></ramp-verification>`);
    await waitUntil(() => q(el, '[data-testid="load-failed"]'));
    expect(text(el, '[data-testid="load-failed"]')).to.contain('could not load this verification');
    expect(errors).to.have.length(1);
  });
});
