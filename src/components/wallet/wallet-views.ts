// The wallet overview: per chain the address (readable, copyable, as a QR a phone's wallet app can scan) and balances.
import { html, nothing, svg, type TemplateResult } from 'lit';
import { blockchainName } from '../../contract/blockchains';
import { isStablecoin } from '../../contract/currencies';
import type { Customer } from '../../contract/customers';
import { sign } from '../../rules/decimal';
import { QUIET_ZONE } from '../pix-checkout/qr';
import { formatAmount } from '../quote/amount';
import { safeHttpUrl } from '../history/summary';
import type { WalletPanel } from './wallet-panel';

type Wallet = Customer['wallets'][number];

export function renderOverview(p: WalletPanel): TemplateResult {
  const t = p.i18n.t.bind(p.i18n);
  const status = html`<p role="status" class="visually-hidden">${p.announcement}</p>`;
  const heading = html`<h2 id="wallet-step-title" tabindex="-1">${t('wallet.title')}</h2>`;
  if (p.failed) {
    return html`${heading}
      <div class="alert" role="alert">${t('wallet.failed')}</div>
      <div class="actions start"><button type="button" @click=${() => void p.load()}>${t('tx.alert.retry')}</button></div>`;
  }
  if (!p.customer) return html`${heading}<p role="status">${t('wallet.loading')}</p>`;
  const wallets = p.customer.wallets;
  if (!wallets.length) return html`${heading}<p>${t('wallet.empty')}</p>`;
  const anything = wallets.some((w) => w.balances?.some((b) => sign(b.balance) > 0));
  return html`${heading}
    <ul class="wallets" part="wallets">
      ${wallets.map((w) => renderWallet(p, w))}
    </ul>
    <div class="actions start">
      ${anything
        ? html`<button type="button" class="primary" data-action="withdraw" @click=${() => p.startWithdraw()}>${t('wallet.withdraw')}</button>`
        : html`<p class="muted">${t('withdraw.nothing')}</p>`}
    </div>
    ${status}`;
}

function renderWallet(p: WalletPanel, w: Wallet): TemplateResult {
  const t = p.i18n.t.bind(p.i18n);
  const name = blockchainName(w.blockchain);
  const id = `address-${w.blockchain}`;
  const explorer = safeHttpUrl(w.blockExplorerUrl);
  const balances = (w.balances ?? []).filter((b) => isStablecoin(b.stablecoin));
  const { size, path } = p.qrOf(w.blockchain)(w.address);
  const side = size + QUIET_ZONE * 2;
  return html`<li class="wallet" part="wallet" data-chain=${w.blockchain}>
    <h3 id=${`${id}-name`}>${name}</h3>
    <figure class="qr" part="qr">
      <svg viewBox="0 0 ${side} ${side}" role="img" aria-label=${t('wallet.qr', { blockchain: name })} xmlns="http://www.w3.org/2000/svg">
        ${svg`<rect width=${side} height=${side} fill="#ffffff"></rect><path transform="translate(${QUIET_ZONE} ${QUIET_ZONE})" d=${path} fill="#000000"></path>`}
      </svg>
    </figure>
    <div class="field">
      <label for=${id}>${t('wallet.address', { blockchain: name })}</label>
      <input id=${id} class="mono" readonly spellcheck="false" autocomplete="off" .value=${w.address} data-address=${w.blockchain} />
    </div>
    <div class="actions start">
      <button type="button" class="small" data-copy=${w.blockchain} @click=${() => void p.copy(w.blockchain, w.address)}>
        ${p.copies.is(w.blockchain) ? t('wallet.copied') : t('wallet.copy')}
      </button>
      ${explorer ? html`<a href=${explorer} target="_blank" rel="noopener noreferrer">${t('wallet.explorer')}<span class="visually-hidden"> ${t('tx.newTab')}</span></a>` : nothing}
    </div>
    <h4 id=${`${id}-balances`}>${t('wallet.balances', { blockchain: name })}</h4>
    ${balances.length
      ? html`<ul class="balances" aria-labelledby=${`${id}-balances`}>
          ${balances.map((b) => html`<li data-balance=${b.stablecoin}>${formatAmount(b.balance, b.stablecoin as 'USDC', p.i18n.locale)}</li>`)}
        </ul>`
      : html`<p class="muted">${t('wallet.balances.none')}</p>`}
  </li>`;
}
