// WCAG 2.2 AA by axe (contrast inside shadow roots included) in every state of every component × light/dark × en/pt-BR/es.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../../src/define';
import type { RampQuote } from '../../../src/components/quote/quote';
import type { RampPixCheckout } from '../../../src/components/pix-checkout/pix-checkout';
import type { RampOfframp } from '../../../src/components/offramp/offramp';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import type { RampDocumentUploader } from '../../../src/components/document-uploader/document-uploader';
import type { RampVerification } from '../../../src/components/verification/verification';
import type { RampWidget } from '../../../src/components/widget/widget';
import type { Document } from '../../../src/contract/kyc';
import { bffScenarios, KycBackend, kycCustomer, kycParty, MockMoneyBackend, sampleFiles, mockBankAccount, mockBuyQuote, mockSellQuote, moneyIds, moneyScenarios, quoteScenarios } from '../mocks/bff-scenarios';
import { FakeClock } from '../support/fake-clock';
import { fakeCamera, refusedCamera } from '../support/fake-camera';
import { FakeXhr, installFakeXhr } from '../support/fake-xhr';
import { startMockBff, worker } from '../support/mock-bff';
import { AxeMatrix, langs, rampElements, settle, themes } from './axe-matrix';

type Host = HTMLElement & { updateComplete: Promise<unknown> };
const q = <T extends Element = HTMLElement>(el: Host, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const $ = <T extends Element = HTMLElement>(el: Host, selector: string): T => {
  const found = q<T>(el, selector);
  if (!found) throw new Error(`${selector} not rendered in <${el.localName}>`);
  return found;
};
const shows = (el: Host, selector: string, what = selector) => waitUntil(() => q(el, selector), `${what} should show in <${el.localName}>`, { timeout: 4_000 });
async function click(el: Host, selector: string): Promise<void> {
  // As a person's press does: the control takes focus (the widget moves focus on only when it was inside).
  $(el, selector).focus();
  $(el, selector).click();
  await el.updateComplete;
}
/** Off the page, so the next fixture is on screen (a quote asks only while visible) and axe has less to walk. */
const unmount = (el: Element) => el.remove();

/** A document the backend already holds. */
const sentDocument = (type: Document['type'], over: Partial<Document> = {}): Document => ({
  id: `01936f2a-0000-7000-8000-${type.length.toString().padStart(12, '0')}`,
  type,
  side: null,
  country: null,
  associatedPartyId: null,
  status: 'SENT',
  comment: null,
  rejectLabels: [],
  fileName: `${type.toLowerCase()}.pdf`,
  contentType: 'application/pdf',
  size: 1234,
  sha256: '0'.repeat(64),
  createdAt: new Date().toISOString(),
  ...over,
});

/** Every document uploader inside has loaded its requirements. */
const uploadersLoaded = (el: Host) =>
  waitUntil(
    () => [...el.shadowRoot!.querySelectorAll('ramp-document-uploader')].every((u) => u.shadowRoot?.querySelector('[part~="requirement"], [data-testid="nothing-needed"]')),
    'the uploaders should load',
    { timeout: 4_000 },
  );

/** What the file picker would do: put the file on the input and fire `change`. */
async function pick(el: Host, selector: string, file: File): Promise<void> {
  const input = $<HTMLInputElement>(el, selector);
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

/** Sets a control's value as typing would (input, change, blur). */
async function fill(el: Host, selector: string, value: string): Promise<void> {
  const control = $<HTMLInputElement>(el, selector);
  control.value = value;
  control.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
  control.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  control.dispatchEvent(new FocusEvent('blur'));
  await el.updateComplete;
}

describe('accessibility matrix (axe × themes × languages)', function () {
  // Each test walks one component through its states, six axe runs per state.
  this.timeout(30_000);
  const matrix = new AxeMatrix();
  let started = 0;
  before(async () => {
    await startMockBff();
    started = performance.now();
  });
  beforeEach(() => {
    matrix.findings.length = 0;
  });
  afterEach(() => worker.resetHandlers());
  after(() => {
    console.log(`a11y matrix: ${matrix.runs} axe runs (${Math.round(matrix.axeMs)} ms in axe) over ${matrix.cells.length} states × ${langs.length} languages × ${themes.length} themes in ${Math.round(performance.now() - started)} ms`);
    return worker.stop();
  });

  /** Each component's states are checked in one test, so one failure names every violation of that component at once. */
  const clean = () => {
    const findings = matrix.findings.splice(0);
    if (findings.length) throw new Error(`${findings.length} accessibility findings:\n\n${findings.join('\n\n')}`);
  };

  it('<ramp-quote>: floating, amount error, problem, locked, expired; buy and sell; a lock refused by a limit or the balance', async () => {
    worker.use(...quoteScenarios.success());
    const clock = new FakeClock();
    const el = await fixture<RampQuote>(html`<ramp-quote session="s" api-base="/bff" amount="1000" refresh-interval="60000" .clock=${clock}></ramp-quote>`);
    await waitUntil(() => (el as unknown as { intersecting: boolean }).intersecting, 'visible');
    clock.advance(0);
    await shows(el, '[data-testid="final-amount"]', 'a floating quote');
    await matrix.check(el, 'quote / floating (buy)');

    await fill(el, '[data-testid="amount-pay"]', '1.234');
    clock.advance(300);
    await shows(el, '[data-testid="amount-error"]', 'the amount error');
    await matrix.check(el, 'quote / amount error');

    worker.use(...quoteScenarios.offline());
    await fill(el, '[data-testid="amount-pay"]', '500');
    clock.advance(300);
    await shows(el, '[data-testid="alert"]', 'the problem');
    await matrix.check(el, 'quote / problem alert');

    worker.resetHandlers();
    worker.use(...quoteScenarios.success());
    await fill(el, '[data-testid="amount-pay"]', '1000');
    clock.advance(300);
    await waitUntil(() => !q(el, '[data-testid="alert"]') && q(el, '[data-testid="final-amount"]'), 'a fresh quote', { timeout: 4_000 });
    await click(el, '[data-testid="time-lock-30s"]');
    await click(el, '[data-testid="lock"]');
    await shows(el, '[data-testid="locked"]', 'the locked quote');
    await matrix.check(el, 'quote / locked, counting down');

    clock.advance(30_000);
    await shows(el, '[data-testid="expired"]', 'the expired notice');
    await matrix.check(el, 'quote / expired');

    await click(el, '[data-testid="requote"]');
    el.direction = 'sell';
    await settle(el);
    clock.advance(300);
    await shows(el, '[data-testid="final-amount"]', 'a sell quote');
    await matrix.check(el, 'quote / floating (sell)');
    unmount(el);

    // What the payment would refuse, said before locking: an approved customer over the single limit, and a sale above the balance.
    worker.use(
      ...new KycBackend({
        customer: kycCustomer({
          type: 'INDIVIDUAL',
          verification: { status: 'APPROVED', level: 'STANDARD', link: 'https://ramp.example/verify/x' },
          wallets: [{ blockchain: 'ETHEREUM', address: '0xabc', blockExplorerUrl: 'https://etherscan.io/address/0xabc', isDefault: true, balances: [{ stablecoin: 'USDC', balance: '50.000000' }, { stablecoin: 'USDT', balance: '0.000000' }] }],
          transactionLimits: { single: { max: '100.00' }, daily: { max: '20000.00', used: '0.00', remaining: '20000.00' }, monthly: { max: '50000.00', used: '0.00', remaining: '50000.00' } },
        } as Parameters<typeof kycCustomer>[0]),
      }).handlers(),
    );
    const limited = await fixture<RampQuote>(html`<ramp-quote session="s" api-base="/bff" amount="1000"></ramp-quote>`);
    await shows(limited, '[data-testid="lock-block"]', 'the limit that refuses the lock');
    await matrix.check(limited, 'quote / lock refused before locking (over the limit)');
    limited.direction = 'sell';
    limited.amount = '100';
    await waitUntil(() => q(limited, '[data-testid="lock-block"]')?.dataset.kind === 'balance' && q(limited, '[data-testid="balance"]'), 'the balance that refuses the sale', { timeout: 4_000 });
    await matrix.check(limited, 'quote / sale above the balance, with the balance');
    clean();
  });

  it('<ramp-pix-checkout>: purpose form, missing purpose, limit problem, payment, progress, success, expired window, expired lock', async () => {
    const money = new MockMoneyBackend();
    worker.use(...moneyScenarios.limitExceeded(), ...money.handlers());
    const quote = mockBuyQuote();
    const el = await fixture<RampPixCheckout>(html`
      <ramp-pix-checkout api-base="/bff" session="s" exchange-rate-id=${moneyIds.lockedBuyQuote} .quote=${quote} poll-interval="20" sandbox></ramp-pix-checkout>
    `);
    await shows(el, '[data-testid="lock-countdown"]', 'the lock countdown');
    await matrix.check(el, 'pix-checkout / purpose form, lock counting down');

    await click(el, '[data-testid="create-payment"]');
    await shows(el, '[data-testid="purpose-error"]', 'the missing purpose');
    await matrix.check(el, 'pix-checkout / missing purpose');

    await fill(el, '#purpose', 'INVESTMENT');
    await click(el, '[data-testid="create-payment"]');
    await shows(el, '[data-testid="alert"]', 'the limit problem');
    await matrix.check(el, 'pix-checkout / limit exceeded');

    worker.resetHandlers();
    worker.use(...money.handlers());
    await click(el, '[data-testid="create-payment"]');
    await shows(el, '[data-testid="payment"]', 'the payment');
    await matrix.check(el, 'pix-checkout / payment (QR, code, countdown, sandbox pay)');

    money.holdAt = 'TRADING';
    await click(el, '[data-testid="simulate-payment"]');
    await waitUntil(() => el.transaction?.state.status === 'TRADING', 'the payment should be received and converting', { timeout: 4_000 });
    await matrix.check(el, 'pix-checkout / payment received, converting');

    money.holdAt = undefined;
    await shows(el, '[data-testid="success"]', 'the success');
    await matrix.check(el, 'pix-checkout / success');

    worker.resetHandlers();
    worker.use(...moneyScenarios.onRampExpires({ expireAfterReads: 1 }));
    const unlocked = await fixture<RampPixCheckout>(html`<ramp-pix-checkout api-base="/bff" session="s" amount="150.00" poll-interval="20"></ramp-pix-checkout>`);
    await fill(unlocked, '#purpose', 'INVESTMENT');
    await click(unlocked, '[data-testid="create-payment"]');
    await shows(unlocked, '[data-testid="failed"]', 'the failure');
    await matrix.check(unlocked, 'pix-checkout / failed (window expired)');

    const now = new Date();
    const short = mockBuyQuote(now, { id: '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5a11', expiresAt: new Date(now.getTime() + 200).toISOString() });
    const expiring = await fixture<RampPixCheckout>(html`<ramp-pix-checkout api-base="/bff" session="s" exchange-rate-id=${short.id!} .quote=${short}></ramp-pix-checkout>`);
    await shows(expiring, '[data-testid="lock-expired"]', 'the expired lock');
    await matrix.check(expiring, 'pix-checkout / lock expired');
    clean();
  });

  it('<ramp-offramp>: account list, confirm, new account with errors, empty, in progress, success, refunded, expired lock', async () => {
    const saved = [mockBankAccount({ n: 1, name: 'Main account' }), mockBankAccount({ n: 2, rail: 'SEPA', name: 'Euro account' }), mockBankAccount({ n: 3, status: 'UNDER_VERIFICATION', name: 'Pending' })];
    const money = new MockMoneyBackend({ accounts: saved, approveAfterReads: 1_000 });
    money.holdAt = 'TRADING';
    worker.use(...money.handlers());
    const el = await fixture<RampOfframp>(html`
      <ramp-offramp api-base="/bff" session="s" exchange-rate-id=${moneyIds.lockedSellQuote} .quote=${mockSellQuote()} poll-interval="20"></ramp-offramp>
    `);
    await shows(el, '[data-testid="account-list"]', 'the accounts');
    await matrix.check(el, 'offramp / account list and payout form');

    await click(el, '[data-testid="confirm-payout"]');
    await shows(el, '[data-testid="account-error"]', 'the missing account');
    await matrix.check(el, 'offramp / confirm with nothing chosen (errors)');

    $<HTMLInputElement>(el, `input[name="bankAccount"][value="${saved[0]!.id}"]`).click();
    await fill(el, '#offramp-purpose', 'INVESTMENT');
    await matrix.check(el, 'offramp / account and purpose chosen, ready to confirm');

    await click(el, '[data-testid="add-account"]');
    await click(el, '[data-testid="rail-SEPA"]');
    await click(el, '[data-testid="save-account"]');
    await shows(el, '#bank-iban-error', 'the form errors');
    await matrix.check(el, 'offramp / new account form with every error');

    await click(el, '[data-testid="rail-PIX"]');
    await matrix.check(el, 'offramp / new PIX account form with every error');
    await click(el, '[data-testid="cancel-account"]');

    await click(el, '[data-testid="confirm-payout"]');
    await waitUntil(() => el.transaction?.state.status === 'TRADING', 'the payout should be converting', { timeout: 4_000 });
    await matrix.check(el, 'offramp / payout in progress');

    money.holdAt = undefined;
    await shows(el, '[data-testid="success"]', 'the receipt');
    await matrix.check(el, 'offramp / success');

    worker.resetHandlers();
    const target = mockBankAccount({ n: 1 });
    worker.use(...moneyScenarios.offRampRefunded({ accounts: [target] }));
    const refunded = await fixture<RampOfframp>(html`<ramp-offramp api-base="/bff" session="s" amount="100.00" poll-interval="20"></ramp-offramp>`);
    await shows(refunded, '[data-testid="account-list"]', 'the accounts');
    $<HTMLInputElement>(refunded, `input[name="bankAccount"][value="${target.id}"]`).click();
    await fill(refunded, '#offramp-purpose', 'INVESTMENT');
    await click(refunded, '[data-testid="confirm-payout"]');
    await shows(refunded, '[data-testid="refunded"]', 'the refund');
    await matrix.check(refunded, 'offramp / refunded');

    worker.resetHandlers();
    worker.use(...new MockMoneyBackend({ accounts: [] }).handlers());
    const now = new Date();
    const short = mockSellQuote(now, { id: '0b3f4c1e-8a52-4c57-9d0e-2a0b7c1d5a21', expiresAt: new Date(now.getTime() + 200).toISOString() });
    const empty = await fixture<RampOfframp>(html`<ramp-offramp api-base="/bff" session="s" exchange-rate-id=${short.id!} .quote=${short}></ramp-offramp>`);
    await shows(empty, '[data-testid="accounts-empty"]', 'no accounts');
    await shows(empty, '[data-testid="lock-expired"]', 'the expired lock');
    await matrix.check(empty, 'offramp / no accounts, lock expired');
    clean();
  });

  describe('<ramp-onboarding>', () => {
    /** Straight to a step, as a resumed session would land on it (the matrix looks at steps, kyc-flow.test.ts walks them). */
    const goTo = (el: RampOnboarding, step: string) => (el as unknown as { goTo(step: string): Promise<void> }).goTo(step);
    const atStep = async (el: RampOnboarding, step: string) => {
      await waitUntil(() => el.currentStep === step, `should reach ${step} (at ${el.currentStep})`, { timeout: 4_000 });
      await settle(el);
    };

    it('individual: customer form (empty, errors, business, network problem), created, information with errors, documents, liveness', async () => {
      const backend = new KycBackend({ reviewMs: 60_000 });
      worker.use(...bffScenarios.offline(), ...backend.handlers());
      const el = await fixture<RampOnboarding>(html`<ramp-onboarding session="onboarding-session" api-base="/bff"></ramp-onboarding>`);
      el.pollIntervalMs = 40;
      await shows(el, '[data-testid="submit"]', 'the customer form');
      await matrix.check(el, 'onboarding / customer form');

      await click(el, '[data-testid="submit"]');
      await shows(el, '#name-error', 'the errors');
      await matrix.check(el, 'onboarding / customer form, every error');

      await click(el, '[data-testid="type-BUSINESS"]');
      await matrix.check(el, 'onboarding / customer form, business');

      await click(el, '[data-testid="type-INDIVIDUAL"]');
      await fill(el, '#name', 'Ana Maria Souza');
      await fill(el, '#taxId', '52998224725');
      await fill(el, '#birthDate', '1990-05-17');
      await click(el, '[data-testid="submit"]');
      await shows(el, '[data-testid="alert"]', 'the network problem');
      await matrix.check(el, 'onboarding / customer form, network problem');

      worker.resetHandlers();
      worker.use(...backend.handlers());
      await click(el, '[data-testid="retry"]');
      await atStep(el, 'info');
      await shows(el, '[data-testid="success"]', 'the created customer');
      await matrix.check(el, 'onboarding / customer created, additional information (individual)');

      await click(el, '[data-testid="info-submit"]');
      await shows(el, '[aria-invalid="true"]', 'the information errors');
      await matrix.check(el, 'onboarding / additional information, every error');

      backend.customer = { ...backend.customer!, additionalInformation: { type: 'INDIVIDUAL' } };
      await goTo(el, 'documents');
      await atStep(el, 'documents');
      await uploadersLoaded(el);
      await matrix.check(el, 'onboarding / documents (individual)');

      await goTo(el, 'liveness');
      await atStep(el, 'liveness');
      await matrix.check(el, 'onboarding / liveness');
      clean();
    });

    it('business: information, owners (list, form, errors), documents of the company and each party, missing, submit, the review in every outcome', async () => {
      const backend = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', taxId: '11222333000180' }), reviewMs: 60_000 });
      const company = kycParty({ type: 'BUSINESS' });
      backend.parties.push(company, kycParty({ type: 'INDIVIDUAL', parentId: company.id, roles: ['SHAREHOLDER'], ownershipPercentage: '100.00', name: 'Bruno Lima' }), kycParty({ type: 'INDIVIDUAL' }));
      worker.use(...backend.handlers());
      const el = await fixture<RampOnboarding>(html`<ramp-onboarding session="bound-session" api-base="/bff"></ramp-onboarding>`);
      el.pollIntervalMs = 40;
      await atStep(el, 'info');
      await matrix.check(el, 'onboarding / additional information (business)');

      backend.customer = { ...backend.customer!, additionalInformation: { type: 'BUSINESS' } };
      await goTo(el, 'parties');
      await atStep(el, 'parties');
      await shows(el, '[data-testid="parties"]', 'the owners');
      await matrix.check(el, 'onboarding / owners');

      await click(el, '[data-testid="add-party"]');
      await click(el, '[data-testid="party-save"]');
      await shows(el, '[data-testid="party-form"] [aria-invalid="true"]', 'the owner form errors');
      await matrix.check(el, 'onboarding / new owner form, every error');
      await click(el, '[data-testid="party-cancel"]');

      await goTo(el, 'documents');
      await atStep(el, 'documents');
      await uploadersLoaded(el);
      await matrix.check(el, 'onboarding / documents of the company and of each owner');

      await click(el, '[data-testid="documents-continue"]');
      await shows(el, '[data-testid="documents-missing"]', 'what is missing');
      await matrix.check(el, 'onboarding / documents, what is missing');

      await goTo(el, 'submit');
      await atStep(el, 'submit');
      await matrix.check(el, 'onboarding / submit');
      await click(el, '[data-testid="start-verification"]');
      await shows(el, '[data-testid="verification-missing"]', 'the refusal');
      await matrix.check(el, 'onboarding / submit refused, what is missing');

      backend.documents.push(sentDocument('DIRECTORS_REGISTRY'));
      backend.startReview();
      await goTo(el, 'status');
      await atStep(el, 'status');
      await waitUntil(() => q(el, '[data-testid="verification-status"]')?.dataset.status === 'UNDER_VERIFICATION', 'under review');
      await matrix.check(el, 'onboarding / status, under review');

      backend.decide('TEMPORARY_REJECTION');
      await waitUntil(() => q(el, '[data-testid="rejected-documents"]'), 'the rejection', { timeout: 4_000 });
      await uploadersLoaded(el);
      await matrix.check(el, 'onboarding / status, temporary rejection with re-upload');

      clean();
    });

    it('a decided review: final rejection, approved', async () => {
      const rejected = new KycBackend({ customer: kycCustomer({ type: 'BUSINESS', additionalInformation: { type: 'BUSINESS' } }) });
      rejected.startReview();
      rejected.decide('FINAL_REJECTION');
      worker.use(...rejected.handlers());
      const el = await fixture<RampOnboarding>(html`<ramp-onboarding session="bound-session" api-base="/bff"></ramp-onboarding>`);
      await atStep(el, 'status');
      await matrix.check(el, 'onboarding / status, final rejection');

      worker.resetHandlers();
      const approved = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
      approved.startReview();
      approved.decide('APPROVED');
      worker.use(...approved.handlers());
      const done = await fixture<RampOnboarding>(html`<ramp-onboarding session="bound-session" api-base="/bff"></ramp-onboarding>`);
      await atStep(done, 'status');
      await matrix.check(done, 'onboarding / status, approved');
      clean();
    });
  });

  it('<ramp-document-uploader>: requirements with a sent and a rejected document, a file refused before sending, an upload in progress, a server problem', async () => {
    const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
    backend.documents.push(sentDocument('PASSPORT'), sentDocument('BANK_STATEMENT', { status: 'REJECTED', comment: 'The statement must be from the last 6 months.', rejectLabels: ['DOCUMENT_OUTDATED'] }));
    worker.use(...backend.handlers());
    const el = await fixture<RampDocumentUploader>(html`<ramp-document-uploader api-base="/bff" session="s"></ramp-document-uploader>`);
    await shows(el, '[part~="requirement"]', 'the requirements');
    await matrix.check(el, 'document-uploader / requirements, sent and rejected documents');

    await pick(el, '[data-testid="input-BANK_STATEMENT"]', sampleFiles.fakePdf());
    await shows(el, '[data-testid="upload-error"]', 'the refused file');
    await matrix.check(el, 'document-uploader / a file refused before sending');

    const restore = installFakeXhr();
    try {
      await pick(el, '[data-testid="input-BANK_STATEMENT"]', sampleFiles.pdf('march.pdf'));
      await waitUntil(() => FakeXhr.instances.length === 1, 'the upload should start');
      FakeXhr.instances[0]!.progress(40, 100);
      await shows(el, '[data-testid="progress"]', 'the progress');
      await matrix.check(el, 'document-uploader / upload in progress');
      FakeXhr.instances[0]!.respond(503, { status: 503, code: 'SERVICE_UNAVAILABLE', title: 'Service unavailable', detail: 'Try again.' });
      await shows(el, '[data-testid="retry"]', 'the server problem and its retry');
      await matrix.check(el, 'document-uploader / server problem on an upload');
    } finally {
      restore();
    }
    clean();
  });

  it('<ramp-verification>: requirements, camera preview, photo taken, camera refused (file), sandbox, under review, approved, final rejection', async () => {
    const backend = new KycBackend({ base: '*/verify/api', customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }), reviewMs: 60_000 });
    worker.use(...backend.handlers());
    const el = await fixture<RampVerification>(html`<ramp-verification api-base="/verify/api" session="link-token" sandbox></ramp-verification>`);
    el.pollIntervalMs = 40;
    await shows(el, '[data-testid="verification-status"]', 'the verification');
    await uploadersLoaded(el);
    await matrix.check(el, 'verification / requirements, documents to send, sandbox');

    const camera = fakeCamera();
    try {
      await click(el, '[data-testid="start-camera"]');
      await waitUntil(() => q(el, '[data-testid="liveness"]')?.dataset.phase === 'preview', 'the preview');
      await matrix.check(el, 'verification / camera preview');
      await click(el, '[data-testid="capture"]');
      await shows(el, '[data-testid="selfie"]', 'the photo');
      await matrix.check(el, 'verification / photo taken');
      await click(el, '[data-testid="retake"]');
      await waitUntil(() => q(el, '[data-testid="liveness"]')?.dataset.phase === 'preview', 'the preview again');
      await click(el, '[data-testid="stop-camera"]');
    } finally {
      camera.restore();
    }

    const restore = refusedCamera('NotAllowedError');
    try {
      await click(el, '[data-testid="start-camera"]');
      await shows(el, '[data-testid="file-fallback"]', 'the file fallback');
      await matrix.check(el, 'verification / camera refused, a photo file instead');
    } finally {
      restore();
    }

    // It follows the review only once everything is sent: a page opened then.
    unmount(el);
    worker.resetHandlers();
    const reviewed = new KycBackend({ base: '*/verify/api', customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }), reviewMs: 60_000 });
    reviewed.livenessDone = true;
    for (const type of ['PASSPORT', 'BANK_STATEMENT'] as const) reviewed.documents.push(sentDocument(type));
    reviewed.startReview();
    worker.use(...reviewed.handlers());
    const waiting = await fixture<RampVerification>(html`<ramp-verification api-base="/verify/api" session="link-token"></ramp-verification>`);
    waiting.pollIntervalMs = 40;
    await waitUntil(() => q(waiting, '[data-testid="verification-status"]')?.dataset.status === 'UNDER_VERIFICATION', 'under review', { timeout: 4_000 });
    await matrix.check(waiting, 'verification / under review');

    reviewed.decide('APPROVED');
    await waitUntil(() => q(waiting, '[data-testid="outcome"]')?.dataset.status === 'APPROVED', 'approved', { timeout: 4_000 });
    await matrix.check(waiting, 'verification / approved');
    unmount(waiting);

    worker.resetHandlers();
    const rejected = new KycBackend({ base: '*/verify/api', customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
    rejected.startReview();
    rejected.decide('FINAL_REJECTION');
    worker.use(...rejected.handlers());
    const final = await fixture<RampVerification>(html`<ramp-verification api-base="/verify/api" session="link-token"></ramp-verification>`);
    await waitUntil(() => q(final, '[data-testid="outcome"]')?.dataset.status === 'FINAL_REJECTION', 'the final rejection', { timeout: 4_000 });
    await matrix.check(final, 'verification / final rejection');
    clean();
  });

  it('<ramp-widget>: onboarding, buy, sell, cash-out, pay, history (empty and with a payment)', async () => {
    worker.use(...new KycBackend().handlers());
    const onboarding = await fixture<RampWidget>(html`<ramp-widget session="onboarding-session" api-base="/bff"></ramp-widget>`);
    await waitUntil(() => onboarding.currentView === 'onboarding', 'the onboarding view', { timeout: 4_000 });
    await settle(onboarding);
    await matrix.check(onboarding, 'widget / onboarding');
    unmount(onboarding); // the next widget's quote must be on screen to quote

    worker.resetHandlers();
    const approved = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', verification: { status: 'APPROVED', level: 'STANDARD', link: 'https://ramp.example/verify/x' } }) });
    const money = new MockMoneyBackend({ accounts: [mockBankAccount({ n: 1, name: 'Main account' })] });
    worker.use(...approved.handlers(), ...quoteScenarios.success(), ...money.handlers());
    const el = await fixture<RampWidget>(html`<ramp-widget session="bound-session" api-base="/bff" amount="1000"></ramp-widget>`);
    await waitUntil(() => el.currentView === 'home', 'the home view', { timeout: 4_000 });
    const inner = <T extends Host>(tag: string) => $<T>(el, tag);
    await shows(el, 'ramp-quote', 'the quote');
    await shows(inner('ramp-quote'), '[data-testid="final-amount"]', 'a quote');
    await matrix.check(el, 'widget / home (buy quote)');

    await click(el, '[data-view="history"]');
    await shows(el, 'section > p:not([role])', 'the empty history');
    await matrix.check(el, 'widget / history, empty');

    await click(el, '[data-view="sell"]');
    const sell = inner<RampQuote>('ramp-quote');
    await shows(sell, '[data-testid="final-amount"]', 'a sell quote');
    await matrix.check(el, 'widget / sell');
    await click(sell, '[data-testid="time-lock-5m"]');
    await click(sell, '[data-testid="lock"]');
    await waitUntil(() => el.currentView === 'cash-out', 'the cash-out view', { timeout: 4_000 });
    await shows(el, 'ramp-offramp', 'the off-ramp');
    await shows(inner('ramp-offramp'), '[data-testid="account-list"]', 'the accounts');
    await waitUntil(() => inner('ramp-offramp').shadowRoot!.activeElement?.id === 'title', 'focus follows the flow to the off-ramp’s heading');
    await matrix.check(el, 'widget / cash-out');

    await click(el, '[data-view="buy"]');
    const buy = inner<RampQuote>('ramp-quote');
    await shows(buy, '[data-testid="final-amount"]', 'a buy quote');
    await click(buy, '[data-testid="time-lock-5m"]');
    await click(buy, '[data-testid="lock"]');
    await waitUntil(() => el.currentView === 'pay', 'the pay view', { timeout: 4_000 });
    await shows(el, 'ramp-pix-checkout', 'the checkout');
    const pay = inner<RampPixCheckout>('ramp-pix-checkout');
    await shows(pay, '#purpose', 'the checkout');
    await waitUntil(() => pay.shadowRoot!.activeElement?.id === 'title', 'focus follows the flow to the checkout’s heading');
    await matrix.check(el, 'widget / pay');
    await fill(pay, '#purpose', 'INVESTMENT');
    await click(pay, '[data-testid="create-payment"]');
    await shows(pay, '[data-testid="payment"]', 'the payment');

    await click(el, '[data-view="history"]');
    await shows(el, '[part="history"] li', 'the history');
    await matrix.check(el, 'widget / history with a payment');
    clean();
  });

  it('without a theme attribute every component follows the system’s colour scheme, and theme="light" or "dark" overrides it', async () => {
    worker.use(...new KycBackend().handlers(), ...quoteScenarios.success(), ...new MockMoneyBackend({ accounts: [mockBankAccount({ n: 1 })] }).handlers());
    const page = await fixture<HTMLDivElement>(html`<div>
      <ramp-widget session="onboarding-session" api-base="/bff"></ramp-widget>
      <ramp-quote session="s" api-base="/bff" amount="1000"></ramp-quote>
      <ramp-pix-checkout session="s" api-base="/bff" amount="150.00"></ramp-pix-checkout>
      <ramp-offramp session="s" api-base="/bff" amount="100.00"></ramp-offramp>
    </div>`);
    const hosts = () => [...page.children].flatMap((c) => rampElements(c as HTMLElement));
    const schemes = () => hosts().map((h) => `${h.localName}:${getComputedStyle(h).colorScheme}`);
    await waitUntil(() => page.querySelector<RampWidget>('ramp-widget')!.currentView === 'onboarding', 'the onboarding view', { timeout: 4_000 });
    await settle(page.firstElementChild as HTMLElement);
    try {
      for (const system of ['dark', 'light'] as const) {
        await emulateMedia({ colorScheme: system });
        expect(schemes()).to.deep.equal(hosts().map((h) => `${h.localName}:${system}`));
        for (const child of page.children) await matrix.scan(child as HTMLElement, `${child.localName} without theme, system ${system}`, { colours: true });
      }
      await emulateMedia({ colorScheme: 'dark' });
      for (const child of page.children) child.setAttribute('theme', 'light');
      for (const child of page.children) await settle(child as HTMLElement);
      expect(schemes(), 'theme="light" wins over a dark system').to.deep.equal(hosts().map((h) => `${h.localName}:light`));
      await emulateMedia({ colorScheme: 'light' });
      for (const child of page.children) child.setAttribute('theme', 'dark');
      for (const child of page.children) await settle(child as HTMLElement);
      expect(schemes(), 'theme="dark" wins over a light system').to.deep.equal(hosts().map((h) => `${h.localName}:dark`));
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
    clean();
  });
});
