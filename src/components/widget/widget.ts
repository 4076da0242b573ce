// <ramp-widget>: the whole flow in one tag. Onboarding (resuming from the server's state), then buy (quote → lock → PIX
// checkout, or bank-transfer instructions for SEPA/SWIFT) or sell (quote → lock → off-ramp with its bank picker), and the
// customer's wallet (addresses, balances, a withdrawal) and transaction history with each one's detail. A lock goes where its quote says (its currencies and rail), never by the tab it came from. The inner
// components get session, API base and language from it by context, and each is fetched only when its view opens.
import { ContextProvider } from '@lit/context';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Quote } from '../../contract/exchange-rates';
import type { Transaction } from '../../contract/transactions';
import { defaultApiBase } from '../../client/api-base';
import { createBffClient } from '../../client/bff-client';
import { I18nController, type Bundle } from '../../i18n';
import { RampElement } from '../ramp-element';
import { themeTokens, visuallyHidden } from '../theme.styles';
import { controlStyles } from '../controls.styles';
import { rampContext } from './context';
import { panelStyles } from './panels.styles';
import type { HistoryPanel, WalletPanel } from './panels';
import { css } from 'lit';

export type WidgetView = 'loading' | 'onboarding' | 'home' | 'buy' | 'sell' | 'pay' | 'cash-out' | 'wallet' | 'history';
type Tab = 'buy' | 'sell' | 'wallet' | 'history';

/** The tab a view belongs to: paying is part of buying, cashing out part of selling. */
const tabOf: Partial<Record<WidgetView, Tab>> = { home: 'buy', buy: 'buy', pay: 'buy', sell: 'sell', 'cash-out': 'sell', wallet: 'wallet', history: 'history' };

/** Where a locked quote is redeemed: a stablecoin given up is a sale (the off-ramp's bank picker); fiat paid in is a buy (PIX or a bank transfer, the checkout follows the quote's rail). */
export const viewForLock = (quote: Pick<Quote, 'sourceCurrency'>): WidgetView => (quote.sourceCurrency === 'USDC' || quote.sourceCurrency === 'USDT' ? 'cash-out' : 'pay');

/** Each view's component, fetched when the view first opens. */
const views: Partial<Record<WidgetView, () => Promise<unknown>>> = {
  onboarding: () => import('../../elements/onboarding'),
  home: () => import('../../elements/quote'),
  buy: () => import('../../elements/quote'),
  sell: () => import('../../elements/quote'),
  pay: () => import('../../elements/pix-checkout'),
  'cash-out': () => import('../../elements/offramp'),
};

/** The wallet and history views' own code, fetched once when either first opens. */
let panels: typeof import('./panels') | undefined;
const loadPanels = () => import('./panels').then((m) => (panels = m));

const optionalAttribute = {
  fromAttribute: (value: string | null) => value ?? '',
  toAttribute: (value: string) => value || null,
};

/**
 * The whole ramp in one element.
 *
 * @fires ramp-customer-created - From the onboarding inside; the widget (and every component in it) switches to `detail.session.token` by itself.
 * @fires ramp-quote-locked - From the quote inside; the widget moves on to the checkout (a buy: PIX, or SEPA/SWIFT transfer instructions) or the off-ramp (a sell), as the quote's currencies say.
 * @fires ramp-transaction-created - From the checkout or off-ramp inside.
 * @fires ramp-transaction-updated - From the checkout or off-ramp inside, up to SUCCESS or a failure.
 * @fires ramp-error - From any component inside.
 * @csspart base - The widget's frame.
 * @csspart nav - The buy / sell / wallet / history tabs (the one direction switch: the quote inside hides its own).
 * @csspart tab - One tab button; the selected one also has `tab-selected`.
 * @csspart history - The list of the customer's transactions, one button per row that opens its detail.
 * @csspart history-detail - One transaction's detail: status, amounts, rail and network, receipt link and hash, payment details.
 * @csspart wallets - The list of the customer's wallets, one per chain.
 * @csspart wallet - One chain's wallet: its address (copy button, QR code, explorer link) and balances.
 * @csspart qr - The QR code of a wallet address.
 * @csspart withdraw - The withdrawal form (network, stablecoin, amount, destination address).
 * @csspart withdraw-confirm - The confirmation that repeats the withdrawal before it is sent.
 * @csspart withdraw-sent - The sent withdrawal and its status.
 * @cssprop --ramp-widget-background - Background of the widget's frame (default `--ramp-color-surface`).
 */
export class RampWidget extends RampElement {
  static override styles = [
    themeTokens,
    visuallyHidden,
    controlStyles,
    panelStyles,
    css`
      :host { display: block; }
      /* The frame paints its own surface: the text colour follows the theme, so the page's background cannot be trusted (dark text on a dark page, light on white). */
      .base { background: var(--ramp-widget-background, var(--_color-surface)); color: var(--_color-text); }
      .nav { display: flex; gap: 0.5rem; flex-wrap: wrap; margin-block-end: 1rem; }
      /* The selected tab is seen, not only announced: the accent fill and a heavier underline. */
      .nav [aria-pressed='true'] {
        color: var(--_button-color, var(--_color-on-primary));
        background: var(--_button-background, var(--_color-primary));
        border-color: var(--_button-background, var(--_color-primary));
        box-shadow: inset 0 -3px 0 var(--_color-text);
      }
    `,
  ];

  /** The BFF's URL. Default: `/bff` beside the script's folder. */
  @property({ attribute: 'api-base' }) apiBase: string = defaultApiBase();

  /** The widget-session token from your backend; replaced by the customer-bound token once onboarding creates the customer. */
  @property({ reflect: true, converter: optionalAttribute }) session = '';

  /** The language (`en`, `pt-BR`, `es`); default: the page's, then the browser's. */
  @property({ reflect: true, converter: optionalAttribute }) override lang = '';

  /** `light` or `dark`; when absent, follows `prefers-color-scheme`. Handed to every component inside. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** Show the sandbox "simulate payment" button in the PIX checkout. */
  @property({ type: Boolean }) sandbox = false;

  /** The partner's support (an email, a phone number or an `https:` URL), passed to the onboarding: shown as a link after a final rejection. */
  @property({ attribute: 'support-contact' }) supportContact = '';

  /** The amount the quote opens with. */
  @property() amount = '';

  @state() private view: WidgetView = 'loading';
  @state() private quote: Quote | undefined;
  @state() private exchangeRateId = '';
  private historyPanel: HistoryPanel | undefined;
  private walletPanel: WalletPanel | undefined;

  private readonly i18n = new I18nController(this);
  private readonly provider = new ContextProvider(this, { context: rampContext, initialValue: { session: '', apiBase: '', lang: '' } });
  private probed = '';

  /** The view shown now (`onboarding`, `home`, `buy`, `sell`, `pay`, `cash-out`, `wallet`, `history`). */
  get currentView(): WidgetView {
    return this.view;
  }

  /** The navigation speaks money; while onboarding, only the onboarding's own `core` messages load. */
  protected override messageBundles(): readonly Bundle[] {
    return this.view === 'loading' || this.view === 'onboarding' ? ['core'] : ['core', 'money'];
  }

  protected override pendingCode(): Promise<unknown> | undefined {
    if (this.view === 'wallet' || this.view === 'history') return panels ? undefined : loadPanels();
    return views[this.view]?.();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('session') || changed.has('apiBase') || changed.has('lang')) {
      this.provider.setValue({ session: this.session, apiBase: this.apiBase, lang: this.lang, renew: this.renewForInside });
    }
    if (this.session && this.view === 'loading' && this.probed !== this.session) void this.resume();
    if (changed.get('view') === 'wallet' && this.view !== 'wallet') this.walletPanel?.leave();
  }

  /** A component inside got a 401: renew once for all, and answer once the new token has reached every one of them. */
  private renewForInside = async (refused?: string): Promise<boolean> => {
    const renewed = await this.renewSession(refused);
    if (renewed) await this.updateComplete; // the update hands the new session down (provider.setValue)
    return renewed;
  };

  private client() {
    return createBffClient({ apiBase: this.apiBase, session: () => this.session, renewSession: this.renewSession });
  }

  /** Where the customer stands: no customer or not yet approved → onboarding (which resumes its own step); approved → home. */
  private async resume(): Promise<void> {
    this.probed = this.session;
    try {
      const { customerId } = await this.client().getSession();
      if (!customerId) return void (this.view = 'onboarding');
      const customer = await this.client().getCustomer();
      this.view = customer.verification.status === 'APPROVED' ? 'home' : 'onboarding';
    } catch {
      this.view = 'onboarding';
    }
  }

  private onCustomerCreated = (event: Event): void => {
    const token = (event as CustomEvent<{ session: { token: string } }>).detail.session.token;
    this.session = token; // everything inside follows by context
  };

  private onVerificationChanged = (event: Event): void => {
    if ((event as CustomEvent<{ status: string }>).detail.status === 'APPROVED') void this.replaceView('home');
  };

  private onQuoteLocked = (event: Event): void => {
    const { quote, exchangeRateId } = (event as CustomEvent<{ quote: Quote; exchangeRateId: string }>).detail;
    this.quote = quote;
    this.exchangeRateId = exchangeRateId;
    void this.replaceView(viewForLock(quote));
  };

  private onRequote = (): void => {
    void this.replaceView(this.view === 'cash-out' ? 'sell' : 'buy');
  };

  /**
   * A view that takes the place of the one the user was in (an approval, a lock, a requote) removes the control that
   * had focus: focus goes to the new view's heading rather than to the page's body, where a keyboard user would start
   * over from the top of the partner's page. Focus elsewhere on the page stays where it is.
   */
  private async replaceView(view: WidgetView): Promise<void> {
    const focusInside = Boolean(this.shadowRoot?.activeElement);
    this.view = view;
    if (!focusInside) return;
    await this.updateComplete;
    const inner = this.renderRoot.querySelector<RampElement>('ramp-onboarding, ramp-quote, ramp-pix-checkout, ramp-offramp');
    await inner?.updateComplete;
    inner?.shadowRoot?.querySelector<HTMLElement>('[part~="title"]')?.focus();
  }

  private showHistory = async (): Promise<void> => {
    this.view = 'history';
    const m = await loadPanels();
    this.historyPanel ??= new m.HistoryPanel(this, this.i18n, () => this.client());
    await this.historyPanel.load();
  };

  private async showWallet(): Promise<void> {
    this.view = 'wallet';
    const m = await loadPanels();
    this.walletPanel ??= new m.WalletPanel(this, this.i18n, () => this.client(), () => void this.showHistory().then(() => this.focusTitle()));
    await this.walletPanel.load();
  }

  /** After a change of view made from inside it (a withdrawal's "open history"), focus goes to the new view's heading. */
  private async focusTitle(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#history-title')?.focus();
  }

  protected override render(): TemplateResult {
    return html`
      <section
        part="base"
        class="base"
        lang=${this.i18n.locale}
        @ramp-customer-created=${this.onCustomerCreated}
        @ramp-verification-changed=${this.onVerificationChanged}
        @ramp-quote-locked=${this.onQuoteLocked}
        @ramp-requote-requested=${this.onRequote}
      >
        ${this.view === 'loading' || this.view === 'onboarding' ? nothing : this.renderNav()} ${this.renderView()}
      </section>
    `;
  }

  private renderNav(): TemplateResult {
    const selected = tabOf[this.view];
    const button = (view: Tab, label: string, go: () => void) =>
      html`<button type="button" class="button" part=${selected === view ? 'tab tab-selected' : 'tab'} data-view=${view} aria-pressed=${selected === view ? 'true' : 'false'} @click=${go}>
        ${label}
      </button>`;
    return html`<nav part="nav" class="nav" aria-label=${this.i18n.t('widget.nav')}>
      ${button('buy', this.i18n.t('quote.direction.buy'), () => (this.view = 'buy'))}
      ${button('sell', this.i18n.t('quote.direction.sell'), () => (this.view = 'sell'))}
      ${button('wallet', this.i18n.t('widget.tab.wallet'), () => void this.showWallet())}
      ${button('history', this.i18n.t('tx.history'), () => void this.showHistory())}
    </nav>`;
  }

  private renderView(): TemplateResult | typeof nothing {
    const theme = this.theme ?? nothing;
    switch (this.view) {
      case 'loading':
        return html`<p role="status" class="visually-hidden">${this.i18n.t('widget.loading')}</p>`;
      case 'onboarding':
        return html`<ramp-onboarding keep-draft theme=${theme} support-contact=${this.supportContact || nothing}></ramp-onboarding>`;
      case 'home':
      case 'buy':
        return html`<ramp-quote direction="buy" hide-direction fiat="BRL" amount=${this.amount || nothing} theme=${theme}></ramp-quote>`;
      case 'sell':
        return html`<ramp-quote direction="sell" hide-direction fiat="BRL" amount=${this.amount || nothing} theme=${theme}></ramp-quote>`;
      case 'pay':
        return html`<ramp-pix-checkout exchange-rate-id=${this.exchangeRateId} .quote=${this.quote} ?sandbox=${this.sandbox} theme=${theme}></ramp-pix-checkout>`;
      case 'cash-out':
        return html`<ramp-offramp exchange-rate-id=${this.exchangeRateId} .quote=${this.quote} theme=${theme}></ramp-offramp>`;
      case 'wallet':
        return this.walletPanel?.render() ?? html`<p role="status">${this.i18n.t('wallet.loading')}</p>`;
      case 'history':
        return html`<h2 id="history-title" class="visually-hidden" tabindex="-1">${this.i18n.t('tx.history')}</h2>
          ${this.historyPanel?.render() ?? html`<p role="status">${this.i18n.t('tx.history.loading')}</p>`}`;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ramp-widget': RampWidget;
  }
}
