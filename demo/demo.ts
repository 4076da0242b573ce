// The demo page's own script: gets sandbox sessions and mounts <ramp-widget> as a partner page would, or with
// ?view=components <ramp-onboarding> (then <ramp-quote>, then <ramp-pix-checkout> or <ramp-offramp> after a lock); logs
// their events, fills the snippets, and wires the sandbox controls.
// Only types come from src/: the component itself arrives through the real embed, /sdk/ramp-widget.js.
import type { WidgetSession } from '../src/contract/widget-sessions';
import type { RampCustomerCreatedEvent, RampErrorEvent, RampQuoteExpiredEvent, RampQuoteLockedEvent } from '../src/events';
import type { RampBankAccountCreatedEvent, RampRequoteRequestedEvent, RampTransactionCreatedEvent, RampTransactionUpdatedEvent } from '../src/events';
import type { RampDocumentUploadedEvent, RampVerificationChangedEvent } from '../src/events';
import { wireSandboxControls } from './sandbox-controls';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the demo page`);
  return el as T;
};

const slot = $<HTMLDivElement>('widget-slot');
const status = $<HTMLOutputElement>('session-status');
const newSessionButton = $<HTMLButtonElement>('new-session');
const langSelect = $<HTMLSelectElement>('demo-lang');
const themeSelect = $<HTMLSelectElement>('demo-theme');
const log = $<HTMLOListElement>('event-log');
const logEmpty = $<HTMLParagraphElement>('event-log-empty');
/** The one tag (the default), or the components one by one. */
const view: 'widget' | 'components' = new URLSearchParams(location.search).get('view') === 'components' ? 'components' : 'widget';
for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="demo-view"]')) {
  radio.checked = radio.value === view;
  radio.addEventListener('change', () => {
    const url = new URL(location.href);
    if (radio.value === 'components') url.searchParams.set('view', 'components');
    else url.searchParams.delete('view');
    location.assign(url);
  });
}
/** The first element of the flow: the whole widget, or the onboarding alone. */
const firstTag = view === 'widget' ? 'ramp-widget' : 'ramp-onboarding';

/** Sandbox only: the server mints a session with its own API key. A partner's backend calls POST /v2/widget-sessions instead. */
async function fetchSession(): Promise<WidgetSession> {
  const response = await fetch('/demo/session', { method: 'POST', headers: { accept: 'application/json' } });
  if (!response.ok) {
    const problem = (await response.json().catch(() => undefined)) as { detail?: string } | undefined;
    throw new Error(problem?.detail ?? `POST /demo/session answered ${response.status}`);
  }
  return (await response.json()) as WidgetSession;
}

function setStatus(state: 'loading' | 'ready' | 'error', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

/** A fresh element per session, so "New session" starts the flow over, as a page reload would. */
function mount(session: WidgetSession): void {
  const widget = document.createElement(firstTag);
  widget.id = view === 'widget' ? 'widget' : 'onboarding';
  widget.dataset.testid = widget.id;
  widget.setAttribute('session', session.token);
  // This page runs against the sandbox server: the checkout inside shows its "Simulate payment" button.
  if (view === 'widget') widget.setAttribute('sandbox', '');
  widget.setAttribute('lang', langSelect.value);
  if (themeSelect.value) widget.setAttribute('theme', themeSelect.value);
  slot.replaceChildren(widget);
}

async function startSession(): Promise<void> {
  newSessionButton.disabled = true;
  setStatus('loading', 'Getting a session…');
  try {
    const session = await fetchSession();
    mount(session);
    const expires = new Date(session.expiresAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    setStatus('ready', `Session ready, expires at ${expires}.`);
  } catch (error) {
    slot.replaceChildren();
    setStatus('error', `Could not get a session: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    newSessionButton.disabled = false;
  }
}

/** Long tokens would drown the log; the element keeps the full one in its `session` attribute. */
function shortenTokens(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > 48 && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value) ? `${value.slice(0, 24)}…` : value;
}

/** Every event the demo logs; the money ones come from <ramp-pix-checkout> and <ramp-offramp>. */
type LoggedEvent =
  | RampCustomerCreatedEvent
  | RampErrorEvent
  | RampQuoteLockedEvent
  | RampQuoteExpiredEvent
  | RampTransactionCreatedEvent
  | RampTransactionUpdatedEvent
  | RampBankAccountCreatedEvent
  | RampRequoteRequestedEvent
  | RampVerificationChangedEvent
  | RampDocumentUploadedEvent;

function logEvent(event: LoggedEvent): void {
  const item = document.createElement('li');
  item.className = 'event';
  item.dataset.event = event.type;
  item.dataset.testid = 'event-entry';
  const heading = document.createElement('p');
  heading.className = 'event-heading';
  const name = document.createElement('code');
  name.textContent = event.type;
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = now.toLocaleTimeString();
  heading.append(name, ' ', time);
  const detail = document.createElement('pre');
  detail.textContent = JSON.stringify(event.detail, shortenTokens, 2);
  // It scrolls (max-height): keyboard users reach it with Tab and scroll it with the arrows (axe scrollable-region-focusable).
  detail.tabIndex = 0;
  detail.setAttribute('role', 'group');
  detail.setAttribute('aria-label', `${event.type} detail`);
  item.append(heading, detail);
  log.prepend(item);
  logEmpty.hidden = true;
}

function fillSnippets(): void {
  const origin = location.origin;
  $('snippet-session').textContent = [
    `curl -X POST ${origin}/v2/widget-sessions \\`,
    `  -H "Authorization: Bearer $RAMP_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"allowedOrigins": ["https://your-shop.example"], "expiresIn": 900}'`,
    ``,
    `# → {"token": "eyJ…", "expiresAt": "…", "customerId": null}`,
  ].join('\n');
  $('snippet-embed').textContent = [
    `<script type="module" src="${origin}/sdk/ramp-widget.js"></script>`,
    ``,
    `<ramp-${view === 'widget' ? 'widget' : 'onboarding'} session="TOKEN_FROM_YOUR_BACKEND" lang="pt-BR"></ramp-${view === 'widget' ? 'widget' : 'onboarding'}>`,
  ].join('\n');
  $('snippet-events').textContent = [
    `document.addEventListener('ramp-customer-created', (event) => {`,
    `  const { customer, session } = event.detail;`,
    `  // The element now uses session.token (bound to customer.id); keep customer.id on your side.`,
    `});`,
    `document.addEventListener('ramp-quote-locked', (event) => {`,
    `  const { exchangeRateId, expiresAt } = event.detail;`,
    `  // Pay with exchangeRateId before expiresAt; ramp-quote-expired says when it is no longer on offer.`,
    `});`,
    `document.addEventListener('ramp-transaction-updated', (event) => {`,
    `  const transaction = event.detail; // transaction.state.status: TRANSFERRING_FIAT, …, SUCCESS`,
    `});`,
    `document.addEventListener('ramp-error', (event) => {`,
    `  // event.detail.code: UNAUTHENTICATED → mint a new session and set element.session; NETWORK_ERROR, …`,
    `});`,
  ].join('\n');
}

function wireCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const text = $(button.dataset.copy ?? '').textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Select and copy';
      }
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  }
}

document.addEventListener('ramp-customer-created', logEvent);
document.addEventListener('ramp-error', logEvent);
// KYC: after creating the customer, <ramp-onboarding> goes on to additional information, documents, the selfie on the
// hosted page (a popup to /verify/{token}) or the start of a business verification, and follows the review live.
document.addEventListener('ramp-verification-changed', logEvent);
document.addEventListener('ramp-document-uploaded', logEvent);

// ── the quote panel: quotes belong to a customer, so it is mounted once one exists, with the session bound to it ──
const quoteSection = $<HTMLElement>('quote-section');
const quoteSlot = $<HTMLDivElement>('quote-slot');

function mountQuote(event: RampCustomerCreatedEvent): void {
  if (view === 'widget') return; // the widget goes on to its own quote
  const quote = document.createElement('ramp-quote');
  quote.id = 'quote';
  quote.dataset.testid = 'quote';
  quote.setAttribute('session', event.detail.session.token);
  quote.setAttribute('lang', langSelect.value);
  quote.setAttribute('amount', '1000');
  if (themeSelect.value) quote.setAttribute('theme', themeSelect.value);
  quoteSlot.replaceChildren(quote);
  quoteSection.hidden = false;
}

/** A new session is a new visitor: the old customer's quotes go with the old onboarding. */
function unmountQuote(): void {
  quoteSlot.replaceChildren();
  quoteSection.hidden = true;
}

document.addEventListener('ramp-customer-created', mountQuote);
document.addEventListener('ramp-quote-locked', logEvent);
document.addEventListener('ramp-quote-expired', logEvent);
newSessionButton.addEventListener('click', unmountQuote);
langSelect.addEventListener('change', () => document.querySelector('ramp-quote')?.setAttribute('lang', langSelect.value));
themeSelect.addEventListener('change', () => {
  const quote = document.querySelector('ramp-quote');
  if (!quote) return;
  if (themeSelect.value) quote.setAttribute('theme', themeSelect.value);
  else quote.removeAttribute('theme');
});
// ── money: after a lock, <ramp-pix-checkout> for a BRL buy or <ramp-offramp> for a sell, with the session bound to the customer ──
const transactionSection = $<HTMLElement>('transaction-section');
const transactionSlot = $<HTMLDivElement>('transaction-slot');
const fiats = new Set(['BRL', 'EUR', 'USD']);
/** The session bound to the customer onboarding created: transactions act for that customer. */
let boundSession = '';

function mountTransaction(event: RampQuoteLockedEvent): void {
  if (!boundSession || view === 'widget') return;
  const { exchangeRateId, quote } = event.detail;
  const buy = fiats.has(quote.sourceCurrency);
  if (buy && quote.sourceCurrency !== 'BRL') {
    // The checkout is PIX: a EUR or USD buy has no pay-in component in this demo.
    const note = document.createElement('p');
    note.className = 'hint';
    note.dataset.testid = 'transaction-unsupported';
    note.textContent = `The checkout pays by PIX: lock a BRL quote to buy (this one pays in ${quote.sourceCurrency}).`;
    transactionSlot.replaceChildren(note);
    transactionSection.hidden = false;
    return;
  }
  const widget = buy ? document.createElement('ramp-pix-checkout') : document.createElement('ramp-offramp');
  widget.id = buy ? 'checkout' : 'offramp';
  widget.dataset.testid = widget.id;
  widget.setAttribute('session', boundSession);
  widget.setAttribute('exchange-rate-id', exchangeRateId);
  widget.setAttribute('lang', langSelect.value);
  if (themeSelect.value) widget.setAttribute('theme', themeSelect.value);
  // This page runs against the sandbox server: show the checkout's "Simulate payment" button.
  if (buy) widget.setAttribute('sandbox', '');
  widget.quote = quote;
  transactionSlot.replaceChildren(widget);
  transactionSection.hidden = false;
}

function unmountTransaction(): void {
  boundSession = '';
  transactionSlot.replaceChildren();
  transactionSection.hidden = true;
}

/** The locked quote can no longer pay: bring the quote panel back into view to lock a new one. */
function showQuotePanel(): void {
  quoteSection.scrollIntoView({ block: 'start' });
}

const sandboxControls = wireSandboxControls(() => boundSession);
document.addEventListener('ramp-customer-created', (event) => {
  boundSession = event.detail.session.token;
  sandboxControls.customerReady(true);
});
document.addEventListener('ramp-quote-locked', mountTransaction);
document.addEventListener('ramp-requote-requested', showQuotePanel);
for (const type of ['ramp-transaction-created', 'ramp-transaction-updated', 'ramp-bank-account-created', 'ramp-requote-requested'] as const) {
  document.addEventListener(type, logEvent);
}
newSessionButton.addEventListener('click', unmountTransaction);
newSessionButton.addEventListener('click', () => sandboxControls.customerReady(false));
langSelect.addEventListener('change', () => transactionSlot.firstElementChild?.setAttribute('lang', langSelect.value));
themeSelect.addEventListener('change', () => {
  const widget = transactionSlot.firstElementChild;
  if (!widget) return;
  if (themeSelect.value) widget.setAttribute('theme', themeSelect.value);
  else widget.removeAttribute('theme');
});
newSessionButton.addEventListener('click', () => void startSession());
langSelect.addEventListener('change', () => document.querySelector(firstTag)?.setAttribute('lang', langSelect.value));
themeSelect.addEventListener('change', () => {
  const widget = document.querySelector(firstTag);
  if (!widget) return;
  if (themeSelect.value) widget.setAttribute('theme', themeSelect.value);
  else widget.removeAttribute('theme');
});
$('clear-log').addEventListener('click', () => {
  log.replaceChildren();
  logEmpty.hidden = false;
});

fillSnippets();
wireCopyButtons();
void startSession();

// ── webhooks: the built-in receiver's log for the customer of this session (the server verified each signature) ──
const webhookLog = $<HTMLOListElement>('webhook-log');
const webhookLogEmpty = $<HTMLParagraphElement>('webhook-log-empty');
interface ReceivedWebhook {
  webhookId: string;
  eventType: string;
  receivedAt: string;
  verified: boolean;
}

function showWebhooks(received: readonly ReceivedWebhook[]): void {
  webhookLog.replaceChildren(
    ...received.map((r) => {
      const item = document.createElement('li');
      item.className = 'event';
      item.dataset.event = r.eventType;
      item.dataset.verified = String(r.verified);
      const heading = document.createElement('p');
      heading.className = 'event-heading';
      const name = document.createElement('code');
      name.textContent = r.eventType;
      const time = document.createElement('time');
      time.dateTime = r.receivedAt;
      time.textContent = new Date(r.receivedAt).toLocaleTimeString();
      heading.append(name, ' ', time, ' ', r.verified ? '✓ signature verified' : '✗ signature not verified');
      item.append(heading);
      return item;
    }),
  );
  webhookLogEmpty.hidden = received.length > 0;
}

/** Polled while the page is open: deliveries arrive a moment after each change, as they would at a partner's backend. */
async function pollWebhooks(): Promise<void> {
  if (boundSession) {
    try {
      const response = await fetch('/demo/webhooks', { headers: { authorization: `Bearer ${boundSession}`, accept: 'application/json' } });
      if (response.ok) {
        const body = (await response.json()) as { endpointUrl: string; data: ReceivedWebhook[] };
        $('webhook-url').textContent = body.endpointUrl;
        showWebhooks(body.data);
      }
    } catch {
      // The next poll tries again.
    }
  } else {
    showWebhooks([]);
  }
  setTimeout(() => void pollWebhooks(), 2000);
}
void pollWebhooks();
