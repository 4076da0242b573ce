// Several middleware as one layer of hono's stack, with the layer semantics of hono's own compose, minus its async frames.
//
// Hono runs each layer in an async `dispatch` that awaits the layer, so every request pays a promise and up to three
// turns of the microtask queue per layer even when the layer only hands the request on. The /v2 stack is seven layers
// before a route's own; as one chain they cost one layer (docs/performance.md).
import type { Context, Env, ErrorHandler, MiddlewareHandler } from 'hono';

const DONE: Promise<void> = Promise.resolve();
const isPromise = (v: unknown): v is Promise<unknown> => v instanceof Promise;

/**
 * One middleware that runs `handlers` in order, each as hono runs a layer: an Error a handler throws or rejects with
 * becomes `onError`'s answer at that handler, so the handlers around it still see an answer after their `next()`
 * (Ramp-Version, request id, the idempotency record of a refused request); a Response a handler returns becomes the
 * answer unless one was already finalised; `next()` twice is a programming error. A handler that answers or hands on
 * without awaiting is not given a promise of its own.
 */
export function chain<E extends Env>(onError: ErrorHandler<E>, ...handlers: MiddlewareHandler<E>[]): MiddlewareHandler<E> {
  return (c, last) => {
    let index = -1;
    const fail = (err: unknown): void | Promise<void> => {
      if (!(err instanceof Error)) throw err;
      c.error = err;
      const answer = onError(err, c as Context<E>);
      if (!isPromise(answer)) {
        c.res = answer;
        return;
      }
      return answer.then((res) => {
        c.res = res;
      });
    };
    const settle = (res: unknown): void => {
      if (res instanceof Response && c.finalized === false) c.res = res;
    };
    const run = (i: number): void | Promise<void> => {
      if (i <= index) throw new Error('next() called multiple times');
      index = i;
      if (i === handlers.length) return last();
      let out: unknown;
      try {
        out = handlers[i]!(c, () => run(i + 1) ?? DONE);
      } catch (err) {
        return fail(err);
      }
      if (isPromise(out)) return out.then(settle, fail);
      settle(out);
    };
    return run(0) ?? DONE;
  };
}
