// The two calls <ramp-pix-checkout> makes, as @lit/task tasks: create the on-ramp and (sandbox) pay it, each under an Idempotency-Key that makes a retry safe.
import { Task, TaskStatus } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import type { BffClient } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import type { BffOnRampRequest, Transaction } from '../../contract/transactions';

type CreateArgs = readonly [request: BffOnRampRequest, idempotencyKey: string];

export interface CheckoutCallsOptions {
  client: () => BffClient;
  created: (tx: Transaction) => void;
  paid: () => void;
  failed: (error: unknown, operation: 'createOnRamp' | 'simulatePayment') => void;
}

export class CheckoutCalls {
  readonly #createKeys = new IdempotencyKeys();
  readonly #payKeys = new IdempotencyKeys();
  readonly #createTask: Task<CreateArgs, Transaction>;
  readonly #payTask: Task<readonly [string, string], unknown>;

  constructor(host: ReactiveControllerHost, options: CheckoutCallsOptions) {
    this.#createTask = new Task(host, {
      autoRun: false,
      task: ([request, idempotencyKey]: CreateArgs, { signal }) => options.client().createOnRamp(request, { idempotencyKey, signal }),
      onComplete: (tx) => options.created(tx),
      onError: (error) => options.failed(error, 'createOnRamp'),
    });
    this.#payTask = new Task(host, {
      autoRun: false,
      task: ([id, idempotencyKey]: readonly [string, string], { signal }) => options.client().simulatePayment(id, { idempotencyKey, signal }),
      onComplete: () => options.paid(),
      onError: (error) => options.failed(error, 'simulatePayment'),
    });
  }

  get creating(): boolean {
    return this.#createTask.status === TaskStatus.PENDING;
  }

  get paying(): boolean {
    return this.#payTask.status === TaskStatus.PENDING;
  }

  /** Same body as a failed attempt → same key: the server creates at most one payment however often this is retried. */
  async create(request: BffOnRampRequest): Promise<void> {
    await this.#createTask.run([request, this.#createKeys.keyFor(request)]);
  }

  pay(id: string): void {
    void this.#payTask.run([id, this.#payKeys.keyFor(id)]);
  }

  /** A payment exists: a later create or pay is a new one. */
  created(): void {
    this.#createKeys.reset();
    this.#payKeys.reset();
  }

  /** A new checkout: its first create is a new one. */
  reset(): void {
    this.#createKeys.reset();
  }
}
