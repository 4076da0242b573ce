// Words in the user's language only: whatever English a server problem carries (`detail`, `title`, `errors[].message`),
// and a reviewer's free-text note, never reach the screen; each component says what happened in its own words, in en,
// pt-BR and es. Every server text below carries one sentinel, looked for in every shadow root's text and attributes.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { http } from 'msw';
import '../../../src/define';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';
import type { RampQuote } from '../../../src/components/quote/quote';
import type { RampPixCheckout } from '../../../src/components/pix-checkout/pix-checkout';
import type { RampDocumentUploader } from '../../../src/components/document-uploader/document-uploader';
import type { Document } from '../../../src/contract/kyc';
import { KycBackend, kycCustomer, MockMoneyBackend, moneyIds, problemResponse, sampleFiles, transactionProblem } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';

const SENTINEL = 'Server English 7f3a';

/** Every text node and attribute value under `root`, shadow roots pierced. */
function everything(root: Element): string {
  const out: string[] = [];
  const walk = (node: Element | ShadowRoot) => {
    for (const el of node.querySelectorAll('*')) {
      for (const a of el.attributes) out.push(a.value);
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) out.push(el.value);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
    out.push(node.textContent ?? '');
  };
  walk(root.shadowRoot ?? root);
  return out.join('\n');
}

const shadowText = (el: Element, selector: string) => el.shadowRoot!.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();

const words = {
  en: { field: 'This value was not accepted.', alert: 'Some details were not accepted.', quote: 'The quote request was not accepted. Check your choices and try again.', tx: 'The request was not accepted. Check the details and try again.', why: 'Why: The reviewer could not accept it.', upload: 'This upload was refused. Check the file and its details, then try again.' },
  'pt-BR': { field: 'Este valor não foi aceito.', alert: 'Alguns dados não foram aceitos.', quote: 'O pedido de cotação não foi aceito. Confira suas escolhas e tente de novo.', tx: 'O pedido não foi aceito. Confira os dados e tente de novo.', why: 'Motivo: A análise não pôde aceitá-lo.', upload: 'Este envio foi recusado. Confira o arquivo e os dados e tente de novo.' },
  es: { field: 'Este valor no fue aceptado.', alert: 'Algunos datos no fueron aceptados.', quote: 'La solicitud de cotización no fue aceptada. Revisa tus opciones e inténtalo de nuevo.', tx: 'La solicitud no fue aceptada. Revisa los datos e inténtalo de nuevo.', why: 'Motivo: La revisión no pudo aceptarlo.', upload: 'Este envío fue rechazado. Revisa el archivo y sus datos e inténtalo de nuevo.' },
} as const;

/** UNDERAGE (one of the form's own rules), INVALID_FORMAT and TOO_LONG (the sentences of src/i18n/problem-words.ts). */
const codeWords = {
  en: ['You must be at least 18 years old.', 'This is not in the expected format.', 'Too long.'],
  'pt-BR': ['Você precisa ter pelo menos 18 anos.', 'Formato não reconhecido.', 'Longo demais.'],
  es: ['Debes tener al menos 18 años.', 'El formato no es el esperado.', 'Demasiado largo.'],
} as const;

describe('words in the user’s language only: never the server’s detail, messages or reviewer notes', () => {
  before(startMockBff);
  afterEach(() => worker.resetHandlers());
  after(() => worker.stop());

  for (const lang of ['en', 'pt-BR', 'es'] as const) {
    const w = words[lang];

    it(`<ramp-onboarding>: a 400 with unknown field problems lands on the field and in the alert in our words (${lang})`, async () => {
      worker.use(
        http.post('*/bff/customers', () =>
          problemResponse(400, 'VALIDATION_FAILED', SENTINEL, {
            title: SENTINEL,
            errors: [
              { path: 'email', message: SENTINEL },
              { path: 'metadata', message: SENTINEL },
            ],
          }),
        ),
      );
      const el = await fixture<RampOnboarding>(html`<ramp-onboarding session="s" api-base="/bff" lang=${lang}></ramp-onboarding>`);
      await el.updateComplete;
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="type-INDIVIDUAL"]'), 'the form', { timeout: 4000 });
      el.shadowRoot!.querySelector<HTMLInputElement>('[data-testid="type-INDIVIDUAL"]')!.click();
      await el.updateComplete;
      const type = (id: string, value: string) => {
        const input = el.shadowRoot!.querySelector<HTMLInputElement>(`#${id}`)!;
        input.value = value;
        input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
        input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      };
      type('name', 'Ana Souza');
      type('taxId', '529.982.247-25');
      type('birthDate', '1990-05-17');
      type('email', 'ana@example.com');
      await el.updateComplete;
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-testid="submit"]')!.click();
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="alert"]'), 'the alert', { timeout: 4000 });
      await el.updateComplete;
      expect(shadowText(el, '[data-testid="alert"] p')).to.equal(w.alert);
      expect(shadowText(el, '#email-error')).to.equal(w.field);
      expect(everything(el)).not.to.contain(SENTINEL);
    });

    it(`<ramp-onboarding>: each field problem is said from its errors[].code, never its message (${lang})`, async () => {
      worker.use(
        http.post('*/bff/customers', () =>
          problemResponse(400, 'VALIDATION_FAILED', SENTINEL, {
            errors: [
              { path: 'birthDate', pointer: '/birthDate', code: 'UNDERAGE', message: SENTINEL },
              { path: 'email', pointer: '/email', code: 'INVALID_FORMAT', message: SENTINEL },
              { path: 'name', pointer: '/name', code: 'TOO_LONG', message: SENTINEL },
            ],
          }),
        ),
      );
      const el = await fixture<RampOnboarding>(html`<ramp-onboarding session="s" api-base="/bff" lang=${lang}></ramp-onboarding>`);
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="type-INDIVIDUAL"]'), 'the form', { timeout: 4000 });
      el.shadowRoot!.querySelector<HTMLInputElement>('[data-testid="type-INDIVIDUAL"]')!.click();
      await el.updateComplete;
      for (const [id, value] of [['name', 'Ana Souza'], ['taxId', '529.982.247-25'], ['birthDate', '1990-05-17'], ['email', 'ana@example.com']]) {
        const input = el.shadowRoot!.querySelector<HTMLInputElement>(`#${id}`)!;
        input.value = value!;
        input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
        input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      }
      await el.updateComplete;
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-testid="submit"]')!.click();
      await waitUntil(() => el.shadowRoot!.querySelector('#name-error'), 'the field errors', { timeout: 4000 });
      await el.updateComplete;
      expect([shadowText(el, '#birthDate-error'), shadowText(el, '#email-error'), shadowText(el, '#name-error')]).to.deep.equal(codeWords[lang]);
      expect(everything(el)).not.to.contain(SENTINEL);
    });

    it(`<ramp-quote>: a 400 the form cannot place is an alert in our words (${lang})`, async () => {
      worker.use(
        http.get('*/bff/customer', () => problemResponse(404, 'NOT_FOUND', SENTINEL)),
        http.post('*/bff/exchange-rates', () => problemResponse(400, 'VALIDATION_FAILED', SENTINEL, { title: SENTINEL, errors: [{ path: 'partnerFeeId', message: SENTINEL }] })),
      );
      const el = await fixture<RampQuote>(html`<ramp-quote session="s" api-base="/bff" lang=${lang} amount="100"></ramp-quote>`);
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="alert"]'), 'the alert', { timeout: 4000 });
      expect(shadowText(el, '[data-testid="alert"] p')).to.equal(w.quote);
      expect(everything(el)).not.to.contain(SENTINEL);
    });

    it(`<ramp-quote>: an amount problem with a code the panel has no rule for gets the plain sentence, not the message (${lang})`, async () => {
      worker.use(
        http.get('*/bff/customer', () => problemResponse(404, 'NOT_FOUND', SENTINEL)),
        http.post('*/bff/exchange-rates', () => problemResponse(400, 'VALIDATION_FAILED', SENTINEL, { errors: [{ path: 'sourceAmount', message: SENTINEL, code: 'SOMETHING_NEW' as 'REQUIRED' }] })),
      );
      const el = await fixture<RampQuote>(html`<ramp-quote session="s" api-base="/bff" lang=${lang} amount="100"></ramp-quote>`);
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="amount-error"]'), 'the amount error', { timeout: 4000 });
      expect(shadowText(el, '[data-testid="amount-error"]')).to.equal(w.field);
      expect(everything(el)).not.to.contain(SENTINEL);
    });

    it(`<ramp-pix-checkout>: a 422 and a field problem are said in our words (${lang})`, async () => {
      worker.use(transactionProblem('on-ramp', 422, 'SOMETHING_NEW', SENTINEL, { title: SENTINEL, errors: [{ path: 'sourceAmount', message: SENTINEL }] }), ...new MockMoneyBackend().handlers());
      const el = await fixture<RampPixCheckout>(html`<ramp-pix-checkout session="s" api-base="/bff" lang=${lang} exchange-rate-id=${moneyIds.lockedBuyQuote}></ramp-pix-checkout>`);
      await el.updateComplete;
      const select = el.shadowRoot!.querySelector<HTMLSelectElement>('#purpose')!;
      select.value = 'INVESTMENT';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-testid="create-payment"]')!.click();
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="alert"]'), 'the alert', { timeout: 4000 });
      expect(shadowText(el, '[data-testid="alert"] p')).to.equal(w.tx);
      expect(everything(el)).not.to.contain(SENTINEL);
    });

    it(`<ramp-document-uploader>: a refused document says why in our words, never the reviewer’s note; a 400 upload too (${lang})`, async () => {
      const backend = new KycBackend({ customer: kycCustomer({ type: 'INDIVIDUAL', additionalInformation: { type: 'INDIVIDUAL' } }) });
      const rejected: Document = {
        id: '01936f2a-0000-7000-8000-0000000000d1',
        type: 'BANK_STATEMENT',
        side: null,
        country: null,
        associatedPartyId: null,
        status: 'REJECTED',
        comment: SENTINEL,
        rejectLabels: ['SOME_LABEL_WE_DO_NOT_KNOW'],
        fileName: 'old.pdf',
        contentType: 'application/pdf',
        size: 1234,
        sha256: '0'.repeat(64),
        createdAt: new Date().toISOString(),
      };
      backend.documents.push(rejected);
      // The refusal first: msw answers with the first handler that matches.
      worker.use(http.post('*/bff/customer/documents', () => problemResponse(400, 'VALIDATION_FAILED', SENTINEL, { errors: [{ path: 'side', message: SENTINEL }] })), ...backend.handlers());
      const el = await fixture<RampDocumentUploader>(html`<ramp-document-uploader session="s" api-base="/bff" lang=${lang}></ramp-document-uploader>`);
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="comment"]'), 'the refused document', { timeout: 4000 });
      expect(shadowText(el, '[data-testid="comment"]')).to.equal(w.why);
      expect(everything(el)).not.to.contain('SOME_LABEL');
      const input = el.shadowRoot!.querySelector<HTMLInputElement>('[data-testid="input-BANK_STATEMENT"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(sampleFiles.pdf('new.pdf'));
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await waitUntil(() => el.shadowRoot!.querySelector('[data-testid="upload-error"]'), 'the refusal', { timeout: 4000 });
      expect(shadowText(el, '[data-testid="upload-error"]')).to.contain(w.upload);
      expect(everything(el)).not.to.contain(SENTINEL);
    });
  }
});
