// <ramp-widget>'s wallet and history, against msw: history rows (direction, amounts in the reader's locale, rail or chain,
// status) and a row's detail (receipt link, hash, bank or PIX data) with focus going there and back; the wallet's
// addresses (copy, QR), balances, and a withdrawal checked on the client, confirmed, sent with an Idempotency-Key and
// followed; in en, pt-BR and es, at 1280 and 320 px, by keyboard, with axe finding nothing.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import '../../../src/elements/widget';
import type { RampWidget } from '../../../src/components/widget/widget';
import type { Transaction } from '../../../src/contract/transactions';
import { problemResponse } from '../mocks/bff-scenarios';
import { startMockBff, worker } from '../support/mock-bff';
import { expectFocus } from '../support/focus';
import { AxeMatrix } from '../a11y/axe-matrix';

const customerId = '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d';
const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
const ownBase = '0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const tronOwn = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const at = '2026-11-20T14:30:00.000Z';

const onRamp: Transaction = {
  id: '01936f2a-0000-7000-8000-000000000003',
  customerId,
  type: 'ON_RAMP',
  blockchain: 'POLYGON',
  request: { customerId, rail: 'PIX', sourceCurrency: 'BRL', sourceAmount: '550.00', targetCurrency: 'USDC', payment: { rail: 'PIX' }, purpose: 'INVESTMENT', blockchain: 'POLYGON' },
  quote: { finalTargetAmount: '98.765432' } as Transaction['quote'],
  state: {
    status: 'SUCCESS',
    payment: { rail: 'PIX', brCode: '00020126580014br.gov.bcb.pix0136123e4567', expiresAt: at },
    receipt: { transactionHash: '0xabc123def4567890', blockExplorerUrl: 'https://amoy.polygonscan.com/tx/0xabc123def4567890', targetAmount: '98.765432' },
  },
  createdAt: at,
  updatedAt: at,
};
const offRamp: Transaction = {
  id: '01936f2a-0000-7000-8000-000000000002',
  customerId,
  type: 'OFF_RAMP',
  blockchain: 'BASE',
  request: { bankAccountId: customerId, sourceCurrency: 'USDC', targetCurrency: 'BRL', amount: '100.000000', payment: { rail: 'PIX', keyType: 'EMAIL', keyValue: 'ana@example.com' }, purpose: 'PERSONAL_ACCOUNT', blockchain: 'BASE' },
  quote: { finalTargetAmount: '548.37' } as Transaction['quote'],
  // A receipt link that is not http(s) is never made a link.
  state: { status: 'TRANSFERRING_FIAT', payment: { rail: 'PIX', keyType: 'EMAIL', keyValue: 'ana@example.com' }, receipt: { transactionHash: '0xfeed', blockExplorerUrl: 'javascript:alert(1)' } },
  createdAt: at,
  updatedAt: at,
};
const transfer = (id: string, status: Transaction['state']['status'], amount = '12.5'): Transaction => ({
  id,
  customerId,
  type: 'TRANSFER',
  blockchain: 'BASE',
  request: { currency: 'USDC', from: customerId, to: evm, amount: Number(amount).toFixed(6), blockchain: 'BASE' },
  state: { status, ...(status === 'SUCCESS' ? { receipt: { transactionHash: '0x77', blockExplorerUrl: 'https://sepolia.basescan.org/tx/0x77' } } : {}) },
  createdAt: at,
  updatedAt: at,
});

const customer = {
  id: customerId,
  verification: { status: 'APPROVED' },
  wallets: [
    { blockchain: 'BASE', address: ownBase, blockExplorerUrl: `https://sepolia.basescan.org/address/${ownBase}`, isDefault: true, balances: [{ stablecoin: 'USDC', balance: '1234.500000' }, { stablecoin: 'USDT', balance: '0.000000' }] },
    { blockchain: 'TRON', address: tronOwn, blockExplorerUrl: `https://nile.tronscan.org/#/address/${tronOwn}`, isDefault: false, balances: [{ stablecoin: 'USDC', balance: '0.000000' }, { stablecoin: 'USDT', balance: '5.000000' }] },
  ],
};

interface Sent {
  body: Record<string, unknown>;
  key: string | null;
}

function bff(o: { transactions?: Transaction[]; transfer?: () => Response; follow?: Transaction[] } = {}): Sent[] {
  const sent: Sent[] = [];
  const follow = [...(o.follow ?? [])];
  worker.use(
    http.get('/bff/session', () => HttpResponse.json({ customerId, expiresAt: new Date(Date.now() + 900_000).toISOString() })),
    http.get('/bff/customer', () => HttpResponse.json(customer)),
    http.get('/bff/transactions', () => HttpResponse.json({ data: o.transactions ?? [onRamp, offRamp], pagination: { size: 20, hasNextPage: false, hasPreviousPage: false } })),
    http.get('/bff/transactions/:id', () => HttpResponse.json(follow.length > 1 ? follow.shift() : follow[0])),
    http.post('/bff/transactions/transfer', async ({ request }) => {
      sent.push({ body: (await request.json()) as Record<string, unknown>, key: request.headers.get('idempotency-key') });
      return o.transfer?.() ?? HttpResponse.json(transfer('01936f2a-0000-7000-8000-0000000000aa', 'TRANSFERRING_STABLECOIN'), { status: 201 });
    }),
  );
  return sent;
}

const root = (el: RampWidget) => el.shadowRoot!;
const q = <T extends Element = HTMLElement>(el: RampWidget, selector: string) => root(el).querySelector<T & HTMLElement>(selector);
/** What the node reads, spaces (the no-break ones Intl puts in amounts too) folded to one. */
const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();

async function openWidget(lang: string, tab: 'history' | 'wallet'): Promise<RampWidget> {
  const el = await fixture<RampWidget>(html`<ramp-widget session="bound" api-base="/bff" lang=${lang}></ramp-widget>`);
  await waitUntil(() => el.currentView === 'home', 'the widget lands on home', { timeout: 5000 });
  await el.updateComplete;
  q(el, `[data-view="${tab}"]`)!.click();
  const ready = tab === 'history' ? '[data-open]' : '[data-chain]';
  await waitUntil(() => q(el, ready), `the ${tab} shows`, { timeout: 5000 });
  return el;
}

/** Nothing in the widget reaches past its own right edge. */
function overflow(el: RampWidget): string[] {
  const limit = el.getBoundingClientRect().right + 0.5;
  return [...root(el).querySelectorAll('*')].filter((n) => n.getBoundingClientRect().right > limit).map((n) => `${n.localName}.${n.className}`);
}

describe('<ramp-widget> history and wallet', () => {
  before(startMockBff);
  afterEach(async () => {
    worker.resetHandlers();
    await setViewport({ width: 800, height: 600 });
  });
  after(() => worker.stop());

  const words = {
    en: { buy: 'Buy', sell: 'Sell', done: 'Completed', brl: 'R$550.00', usdc: '98.765432 USDC', back: 'Back to history', wallet: 'Wallet' },
    'pt-BR': { buy: 'Compra', sell: 'Venda', done: 'Concluído', brl: 'R$ 550,00', usdc: '98,765432 USDC', back: 'Voltar ao histórico', wallet: 'Carteira' },
    es: { buy: 'Compra', sell: 'Venta', done: 'Completado', brl: '550,00 BRL', usdc: '98,765432 USDC', back: 'Volver al historial', wallet: 'Billetera' },
  } as const;

  for (const lang of ['en', 'pt-BR', 'es'] as const) {
    for (const width of [1280, 320]) {
      it(`history rows say direction, amounts, rail and chain, status; a row opens its detail and Back returns (${lang}, ${width} px)`, async () => {
        await setViewport({ width, height: 900 });
        bff();
        const el = await openWidget(lang, 'history');
        const w = words[lang];
        const rows = [...root(el).querySelectorAll('[data-transaction]')];
        expect(rows).to.have.length(2);
        const buy = text(rows[0]);
        expect(buy).to.contain(w.buy);
        expect(buy).to.contain(w.brl);
        expect(buy).to.contain(w.usdc);
        expect(buy).to.contain('PIX · Polygon');
        expect(rows[0]!.querySelector('[data-status]')!.getAttribute('data-status')).to.equal('SUCCESS');
        expect(text(rows[1])).to.contain(w.sell);
        expect(text(rows[1])).to.contain('PIX · Base');
        expect(overflow(el), 'nothing past the edge').to.deep.equal([]);
        expect(q(el, '[data-view="wallet"]')!.textContent!.trim()).to.equal(w.wallet);

        // Keyboard: the row is a button; Enter opens the detail and focus lands on its heading.
        const row = q<HTMLButtonElement>(el, `[data-open="${onRamp.id}"]`)!;
        row.focus();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => q(el, '[data-detail]'), 'the detail opens', { timeout: 3000 });
        await waitUntil(() => root(el).activeElement?.id === 'history-detail-title', 'focus on the detail heading', { timeout: 3000 });
        const detail = q(el, '[data-detail]')!;
        expect(text(detail)).to.contain(w.done);
        expect(text(detail)).to.contain('0xabc123def4567890');
        const link = detail.querySelector<HTMLAnchorElement>('[data-testid="receipt"]')!;
        expect(link.href).to.equal('https://amoy.polygonscan.com/tx/0xabc123def4567890');
        expect(link.rel).to.equal('noopener noreferrer');
        expect(link.target).to.equal('_blank');
        expect(text(detail.querySelector('[data-testid="payment"]'))).to.contain('00020126580014br.gov.bcb.pix');
        expect(overflow(el), 'nothing past the edge in the detail').to.deep.equal([]);
        const back = q<HTMLButtonElement>(el, '[data-action="back"]')!;
        expect(text(back)).to.contain(w.back);
        back.focus();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => !q(el, '[data-detail]'), 'back to the list', { timeout: 3000 });
        await waitUntil(() => root(el).activeElement?.getAttribute('data-open') === onRamp.id, 'focus back on the row', { timeout: 3000 });
        expectFocus(root(el).activeElement, q(el, `[data-open="${onRamp.id}"]`));
      });
    }
  }

  it('an off-ramp detail shows the PIX key it pays; a receipt link that is not http(s) is no link', async () => {
    bff();
    const el = await openWidget('en', 'history');
    q(el, `[data-open="${offRamp.id}"]`)!.click();
    await waitUntil(() => q(el, '[data-detail]'), 'the detail opens', { timeout: 3000 });
    const detail = q(el, '[data-detail]')!;
    expect(text(detail.querySelector('[data-testid="payment"]'))).to.contain('ana@example.com');
    expect(text(detail.querySelector('[data-testid="payment"]'))).to.contain('Email');
    expect(text(detail)).to.contain('0xfeed');
    expect(detail.querySelector('a') === null, 'no link is made of it').to.equal(true);
    expect(text(detail)).to.contain('Paying out to your bank');
  });

  for (const width of [1280, 320]) {
    it(`the wallet shows each chain's address with a copy button and a QR, and its balances (pt-BR, ${width} px)`, async () => {
      await setViewport({ width, height: 900 });
      bff();
      const el = await openWidget('pt-BR', 'wallet');
      const base = q(el, '[data-chain="BASE"]')!;
      expect(base.querySelector<HTMLInputElement>('[data-address="BASE"]')!.value).to.equal(ownBase);
      expect(base.querySelector('svg[role="img"]')!.getAttribute('aria-label')).to.equal('QR code do seu endereço na Base');
      expect(base.querySelector('svg path')!.getAttribute('d')).to.match(/^M\d/);
      expect(text(base.querySelector('.balances'))).to.contain('1.234,50 USDC');
      expect(text(q(el, '[data-chain="TRON"]'))).to.contain('5,00 USDT');
      const explorer = base.querySelector<HTMLAnchorElement>('a')!;
      expect(explorer.rel).to.equal('noopener noreferrer');
      // Copy: to the clipboard when the browser lets the page write it, else the address is selected for a manual copy.
      const copy = base.querySelector<HTMLButtonElement>('[data-copy="BASE"]')!;
      copy.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => text(root(el).querySelector('[role="status"]')) !== '', 'the copy is announced', { timeout: 3000 });
      const said = text(root(el).querySelector('[role="status"]'));
      expect(['Seu endereço na Base foi copiado.', 'O endereço está selecionado: pressione Ctrl+C (⌘+C no Mac) para copiá-lo.']).to.include(said);
      expect(overflow(el), 'nothing past the edge').to.deep.equal([]);
    });
  }

  it('a withdrawal: problems on their fields, a confirmation that repeats it all, sent once with an Idempotency-Key, then followed', async () => {
    const sent = bff({ follow: [transfer('01936f2a-0000-7000-8000-0000000000aa', 'TRANSFERRING_STABLECOIN'), transfer('01936f2a-0000-7000-8000-0000000000aa', 'SUCCESS')] });
    const el = await openWidget('en', 'wallet');
    q(el, '[data-action="withdraw"]')!.click();
    await waitUntil(() => q(el, '#withdraw-to'), 'the form', { timeout: 3000 });
    await waitUntil(() => root(el).activeElement?.id === 'wallet-step-title', 'focus on the form heading', { timeout: 3000 });
    expect(q<HTMLSelectElement>(el, '#withdraw-chain')!.value).to.equal('BASE');
    expect(text(q(el, '#withdraw-amount-hint'))).to.equal('Available: 1,234.50 USDC');

    const type = async (selector: string, value: string) => {
      const input = q<HTMLInputElement>(el, selector)!;
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await el.updateComplete;
    };
    // Over the balance, and an address with one letter's case changed (a broken EIP-55 checksum).
    await type('#withdraw-amount', '2000');
    await type('#withdraw-to', evm.replace('E0F7', 'e0F7'));
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '#withdraw-amount-error'), 'the amount problem', { timeout: 3000 });
    expect(text(q(el, '#withdraw-amount-error'))).to.equal('This is more than your balance of 1,234.50 USDC.');
    expect(q(el, '#withdraw-amount')!.getAttribute('aria-invalid')).to.equal('true');
    expect(q(el, '#withdraw-amount')!.getAttribute('aria-describedby')).to.contain('withdraw-amount-error');
    expect(text(q(el, '#withdraw-to-error'))).to.contain('checksum');
    expectFocus(root(el).activeElement, q(el, '#withdraw-amount'));
    expect(sent).to.have.length(0);

    // Their own wallet, and a TRON address on Base.
    await type('#withdraw-amount', '12,5');
    await type('#withdraw-to', ownBase.toLowerCase());
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '#withdraw-to-error'), 'the own-address problem', { timeout: 3000 });
    expect(text(q(el, '#withdraw-to-error'))).to.contain('your own wallet');
    await type('#withdraw-to', tronOwn);
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => text(q(el, '#withdraw-to-error')).includes('not a Base address'), 'the format problem', { timeout: 3000 });

    await type('#withdraw-amount', '12.5');
    await type('#withdraw-to', evm);
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '[data-confirm]'), 'the confirmation', { timeout: 3000 });
    await waitUntil(() => root(el).activeElement?.id === 'wallet-step-title', 'focus on the confirmation heading', { timeout: 3000 });
    expect(text(q(el, '[data-confirm="blockchain"]'))).to.equal('Base');
    expect(text(q(el, '[data-confirm="coin"]'))).to.equal('USDC');
    expect(text(q(el, '[data-confirm="amount"]'))).to.equal('12.50 USDC');
    expect(text(q(el, '[data-confirm="to"]'))).to.equal(evm);
    expect(sent, 'nothing is sent before the confirmation').to.have.length(0);

    q(el, '[data-action="send"]')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => q(el, '[part="withdraw-sent"]'), 'the sent view', { timeout: 3000 });
    expect(sent).to.have.length(1);
    expect(sent[0]!.body).to.deep.equal({ currency: 'USDC', blockchain: 'BASE', to: evm, amount: '12.5' });
    expect(sent[0]!.key).to.match(/^[0-9a-f-]{36}$/);
    await waitUntil(() => q(el, '[part="withdraw-sent"] [data-status="SUCCESS"]'), 'the status follows the transfer to SUCCESS', { timeout: 8000 });
    expect(text(q(el, '[part="withdraw-sent"] [role="status"]'))).to.equal('Completed');
  });

  it('a refused withdrawal (422 INSUFFICIENT_BALANCE) is said in the user words; a retry sends the same Idempotency-Key', async () => {
    let answer = () => problemResponse(422, 'INSUFFICIENT_BALANCE', 'Not enough USDT on TRON for this movement.', { asset: 'USDT', blockchain: 'TRON' });
    const sent = bff({ transfer: () => answer() });
    const el = await openWidget('es', 'wallet');
    q(el, '[data-action="withdraw"]')!.click();
    await waitUntil(() => q(el, '#withdraw-chain'), 'the form', { timeout: 3000 });
    const chain = q<HTMLSelectElement>(el, '#withdraw-chain')!;
    chain.value = 'TRON';
    chain.dispatchEvent(new Event('change'));
    const coin = q<HTMLSelectElement>(el, '#withdraw-coin')!;
    coin.value = 'USDT';
    coin.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(text(q(el, '#withdraw-to-hint'))).to.contain('T');
    const amount = q<HTMLInputElement>(el, '#withdraw-amount')!;
    amount.value = '5';
    amount.dispatchEvent(new Event('input'));
    const to = q<HTMLInputElement>(el, '#withdraw-to')!;
    to.value = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
    to.dispatchEvent(new Event('input'));
    await el.updateComplete;
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '[data-action="send"]'), 'the confirmation', { timeout: 3000 });
    q(el, '[data-action="send"]')!.click();
    await waitUntil(() => q(el, '#withdraw-alert'), 'the alert', { timeout: 3000 });
    expect(text(q(el, '#withdraw-alert'))).to.equal('Tu billetera no tiene suficiente USDT en Tron para este retiro.');
    expectFocus(root(el).activeElement, q(el, '#withdraw-alert'));
    answer = () => HttpResponse.json(transfer('01936f2a-0000-7000-8000-0000000000bb', 'TRANSFERRING_STABLECOIN'), { status: 201 }) as unknown as Response;
    q(el, '[data-action="send"]')!.click();
    await waitUntil(() => q(el, '[part="withdraw-sent"]'), 'the sent view', { timeout: 3000 });
    expect(sent.map((s) => s.key)).to.have.length(2);
    expect(sent[1]!.key).to.equal(sent[0]!.key);
  });

  it('axe finds nothing in the history, a detail, the wallet, the form with its problems and the confirmation (en, pt-BR, es; light, dark)', async () => {
    bff();
    const axe = new AxeMatrix();
    const el = await openWidget('en', 'history');
    await axe.check(el, 'history');
    q(el, `[data-open="${onRamp.id}"]`)!.click();
    await waitUntil(() => q(el, '[data-detail]'), 'the detail', { timeout: 3000 });
    await axe.check(el, 'history detail');
    q(el, '[data-view="wallet"]')!.click();
    await waitUntil(() => q(el, '[data-chain]'), 'the wallet', { timeout: 3000 });
    await axe.check(el, 'wallet');
    q(el, '[data-action="withdraw"]')!.click();
    await waitUntil(() => q(el, '[data-action="review"]'), 'the form', { timeout: 3000 });
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '#withdraw-to-error'), 'the problems', { timeout: 3000 });
    await axe.check(el, 'withdraw form with problems');
    const amount = q<HTMLInputElement>(el, '#withdraw-amount')!;
    amount.value = '1';
    amount.dispatchEvent(new Event('input'));
    const to = q<HTMLInputElement>(el, '#withdraw-to')!;
    to.value = evm;
    to.dispatchEvent(new Event('input'));
    q(el, '[data-action="review"]')!.click();
    await waitUntil(() => q(el, '[data-confirm]'), 'the confirmation', { timeout: 3000 });
    await axe.check(el, 'withdraw confirmation');
    expect(axe.findings).to.deep.equal([]);
  });
});
