// A Lit reactive controller holding <ramp-quote>'s customer with limits and balances, read again whenever the verification moves on the page.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BffClient } from '../../client/bff-client';
import type { Customer } from '../../contract/customers';

export class AccountWatch implements ReactiveController {
  #current: Customer | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly client: () => BffClient,
    private readonly session: () => string,
  ) {
    host.addController(this);
  }

  /** The session's customer, to refuse before locking what the payment would refuse; undefined when unknown. */
  get customer(): Customer | undefined {
    return this.#current;
  }

  /** Best effort: without it nothing is refused here, and the payment still has the server's word. */
  async load(): Promise<void> {
    if (!this.session()) {
      this.#set(undefined);
      return;
    }
    try {
      this.#set(await this.client().getCustomer({ include: ['limits', 'balances'] }));
    } catch {
      this.#set(undefined);
    }
  }

  hostConnected(): void {
    // Any component on the page (onboarding, verification) that sees the customer's verification change says so.
    document.addEventListener('ramp-verification-changed', this.#onVerificationChanged);
  }

  hostDisconnected(): void {
    document.removeEventListener('ramp-verification-changed', this.#onVerificationChanged);
  }

  /** Like a `@state` field: a change re-renders the host, the same value does not. */
  #set(customer: Customer | undefined): void {
    if (customer === this.#current) return;
    this.#current = customer;
    this.host.requestUpdate();
  }

  /** The customer's verification moved (approved, say): what the lock would be refused for is read again at once. */
  #onVerificationChanged = (): void => void this.load();
}
