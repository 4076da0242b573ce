// Answers finished in one turn of the event loop are written together at the end of that turn, not one by one as each
// handler finishes. Each still costs one write on its own socket; what changes is when. A peer on the same host (a
// reverse proxy or sidecar in front of the server, or a load generator) that sleeps between answers is woken once for
// the batch instead of once per answer: that wake-up was the costliest call of a floating quote (figures in
// docs/performance.md). The cost is latency: an answer waits for the handlers still running in its turn, at most one
// turn of the loop; an idle server's turn holds one answer. This is a
// subclass through node's documented `ServerResponse` option; @hono/node-server, which calls `end()` and `destroy()` and
// reads `writableFinished`, is pinned in package.json, and test/server/batched-response.test.ts checks its answers
// through this class against node's own.
import { type IncomingMessage, ServerResponse } from 'node:http';

/** `http.createServer({ ServerResponse: BatchedResponse })`: `end()` is queued and runs at the end of this loop turn. */
export class BatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  private static pending: BatchedResponse[] = [];

  private static flush(): void {
    const batch = BatchedResponse.pending;
    BatchedResponse.pending = [];
    let failure: unknown;
    for (const res of batch) {
      try {
        res.endNow();
      } catch (err) {
        // A bad chunk is a programming error: the rest of the batch is still written, then it surfaces as thrown.
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** The `end()` calls queued for the end of this turn, in order. */
  #ends: unknown[][] | undefined;

  override end(...args: unknown[]): this {
    if (this.#ends) this.#ends.push(args);
    else {
      this.#ends = [args];
      if (BatchedResponse.pending.push(this) === 1) setImmediate(BatchedResponse.flush);
    }
    return this;
  }

  /** Destroyed before its turn ended (a stream that failed mid-answer, say): what was ended is written first, as unbatched. */
  override destroy(error?: Error): this {
    this.endNow();
    return super.destroy(error);
  }

  private endNow(): void {
    const ends = this.#ends;
    this.#ends = undefined;
    if (ends) for (const args of ends) super.end(...(args as []));
  }
}

/** The options every listening server of ours passes to `serve()` (server/main.ts and the bench's server). */
export const serverOptions = { ServerResponse: BatchedResponse } as const;
