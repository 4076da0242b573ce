// Follows the transaction a money component created (<ramp-pix-checkout>, <ramp-offramp>): its live feed, the furthest step reached, and the events of a status change.
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { Transaction } from '../../contract/transactions';
import { ProblemError, type BffClient } from '../../client/bff-client';
import { eventsOpener } from '../../client/event-stream';
import { transactionFeed } from '../../client/transaction-feed';
import { RampErrorEvent } from '../../events/error';
import { RampTransactionCreatedEvent } from '../../events/transaction-created';
import { RampTransactionUpdatedEvent } from '../../events/transaction-updated';
import type { I18nController } from '../../i18n';
import { FeedController } from '../feed-controller';
import { stepLabelKey, stepStateKeys } from './labels';
import { alertFor, errorDetailFor, type TransactionAlert } from './problems';
import { renderStepper } from './stepper';
import { furthest, isTerminal, progressOf, type TransactionStatus, type TransactionType } from './steps';

/** The element that follows a transaction: where to read it, for whom, how often (read at each start, so a new session or `api-base` is used). */
export type TrackerHost = ReactiveControllerHost & EventTarget & { readonly apiBase: string; readonly session: string; readonly pollInterval: number };

export interface TransactionTrackerOptions {
  type: TransactionType;
  client: () => BffClient;
  /** A new status, after `ramp-transaction-updated` went out: the host says it and moves focus as its panels need. */
  changed: (previous: Transaction, next: Transaction) => void;
  /** A read refused for a reason that will not heal by itself (session, access, gone): following has stopped and `ramp-error` went out; the host shows the alert. */
  lost: (alert: TransactionAlert | undefined) => void;
}

/**
 * `begin(tx)` takes the transaction the host just created (fires `ramp-transaction-created`) and follows it until a
 * terminal status; every read updates `tx`, a change of status fires `ramp-transaction-updated` once. A failed read
 * sets `trouble` (shown as "status is slow") and keeps following. The host re-renders on every change.
 */
export class TransactionTracker {
  #tx: Transaction | undefined;
  /** The furthest status reached on the path, so a failure marks the step where it happened. */
  #reached: TransactionStatus | undefined;
  #trouble = false;
  readonly #feed: FeedController<Transaction>;

  constructor(
    private readonly host: TrackerHost,
    private readonly options: TransactionTrackerOptions,
  ) {
    // The feed is itself a controller: it pauses while the host is out of the document.
    this.#feed = new FeedController<Transaction>(host, {
      next: (tx) => this.observe(tx),
      error: (error) => this.failed(error),
    });
  }

  get tx(): Transaction | undefined {
    return this.#tx;
  }

  get reached(): TransactionStatus | undefined {
    return this.#reached;
  }

  /** The last read failed (network, server): the status shown may be behind. */
  get trouble(): boolean {
    return this.#trouble;
  }

  begin(tx: Transaction): void {
    this.#tx = tx;
    this.#reached = tx.state.status;
    this.host.requestUpdate();
    this.host.dispatchEvent(new RampTransactionCreatedEvent(tx));
    if (isTerminal(tx.state.status)) return this.#feed.stop();
    const host = this.host;
    const client = this.options.client();
    const open = eventsOpener({ apiBase: host.apiBase, session: () => host.session });
    this.#feed.start((immediate) => transactionFeed(client, tx.id, { intervalMs: host.pollInterval, immediate, open }));
  }

  /** Ask for news now (the user paid in sandbox, a window closed on the server's clock). */
  refresh(): void {
    this.#feed.restart();
  }

  /** The user pressed "try again" after a failed read. */
  retry(): void {
    this.#trouble = false;
    this.host.requestUpdate();
    this.#feed.restart();
  }

  /** Forget the transaction (a new checkout or payout starts). */
  clear(): void {
    this.#feed.stop();
    this.#tx = undefined;
    this.#reached = undefined;
    this.#trouble = false;
    this.host.requestUpdate();
  }

  /** "Step 2 of 4: Trading", for the host's live region. */
  stepNews(i18n: I18nController): string | undefined {
    const tx = this.#tx;
    if (!tx) return undefined;
    const type = this.options.type;
    const progress = progressOf(type, tx.state.status, this.#reached);
    const step = progress.steps[progress.current];
    if (!step) return undefined;
    const label = i18n.t(stepLabelKey(type, step.status));
    return i18n.t('tx.announce.step', { current: progress.current + 1, total: progress.steps.length, label });
  }

  /** The status list, the failed step marked where it happened. */
  renderStepper(tx: Transaction, i18n: I18nController): TemplateResult {
    const type = this.options.type;
    return renderStepper(progressOf(type, tx.state.status, this.#reached), {
      heading: i18n.t('tx.progress'),
      label: (s) => i18n.t(stepLabelKey(type, s)),
      state: (s) => (s === 'upcoming' ? '' : i18n.t(stepStateKeys[s])),
    });
  }

  /** "Status updates are slow", while reads fail. */
  renderTrouble(i18n: I18nController): TemplateResult | typeof nothing {
    return this.#trouble ? html`<p class="muted" data-testid="status-trouble">${i18n.t('tx.status.slow')}</p>` : nothing;
  }

  /** Every read lands here; only a change of status is news. */
  private observe(next: Transaction): void {
    const previous = this.#tx;
    if (!previous || next.id !== previous.id) return;
    this.#trouble = false;
    this.#tx = next;
    this.host.requestUpdate();
    if (next.state.status === previous.state.status) return;
    this.#reached = furthest(this.options.type, this.#reached, next.state.status);
    if (isTerminal(next.state.status)) this.#feed.stop();
    this.host.dispatchEvent(new RampTransactionUpdatedEvent(next));
    this.options.changed(previous, next);
  }

  /** A failed read: say so quietly and keep following; a session or access problem will not heal by itself, so stop. */
  private failed(error: unknown): void {
    if (error instanceof ProblemError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      this.#feed.stop();
      this.options.lost(alertFor(error));
      this.host.dispatchEvent(new RampErrorEvent(errorDetailFor(error, 'getTransaction')));
      return;
    }
    this.#trouble = true;
    this.host.requestUpdate();
  }
}
