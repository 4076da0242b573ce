// `chain` (server/http/chain.ts) against hono's own compose: the same middleware, once as layers of their own and once
// chained into one layer, must give the same answer (status, body, headers) and run the same code, whatever they do:
// hand on with or without a promise, answer without handing on, throw before or after an await, throw a non-Error,
// call next() twice. The /v2 stack depends on it: an error thrown in auth still gets the Ramp-Version of apiVersions
// around it, and idempotency records the answer of a request refused inside it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Context, Hono, type ErrorHandler, type MiddlewareHandler } from 'hono';
import { chain } from '../../server/http/chain';

type Step = (log: string[]) => MiddlewareHandler;

/** An outer middleware that sets a header and logs after its next(), whatever happened inside. */
const around =
  (name: string): Step =>
  (log) =>
  async (c, next) => {
    log.push(`${name}>`);
    await next();
    log.push(`<${name} ${c.res.status}`);
    c.res.headers.set(`x-${name}`, String(c.res.status));
  };
/** Hands on without an async frame (returns next()'s promise). */
const pass =
  (name: string): Step =>
  (log) =>
  (c, next) => {
    log.push(name);
    return next();
  };
const answer =
  (status: number): Step =>
  (log) =>
  (c) => {
    log.push(`answer ${status}`);
    return Promise.resolve(c.text(`answered ${status}`, status as 200));
  };
/** Answers synchronously (a Response, not a promise of one), as hono allows. */
const answerNow =
  (status: number): Step =>
  () =>
  ((c: Context) => c.text(`now ${status}`, status as 200)) as unknown as MiddlewareHandler;
const throwNow =
  (message: string): Step =>
  (log) =>
  () => {
    log.push(`throw ${message}`);
    throw new Error(message);
  };
const throwLater =
  (message: string): Step =>
  (log) =>
  async (_c, next) => {
    await Promise.resolve();
    log.push(`reject ${message}`);
    if (message === 'after next') await next();
    throw new Error(message);
  };
const throwString: Step = () => () => {
  throw 'not an Error';
};
const nextTwice: Step = () => async (_c, next) => {
  await next();
  await next();
};
/** Hands on, then replaces the answer with its own. */
const rewrite: Step = (log) => async (c, next) => {
  await next();
  log.push('rewrite');
  c.res = new Response('rewritten', { status: 202 });
};

const onError: ErrorHandler = (err, c) => c.text(`error: ${err.message}`, 500);

/** The app with `steps` before a route that answers 200, as separate layers or as one chain. */
function appWith(steps: Step[], chained: boolean, log: string[]) {
  const app = new Hono();
  app.onError(onError);
  const handlers = steps.map((s) => s(log));
  if (chained) app.use('*', chain(onError, ...handlers));
  else app.use('*', ...handlers);
  app.get('/', (c) => {
    log.push('route');
    return c.text('route');
  });
  return app;
}

async function outcome(steps: Step[], chained: boolean) {
  const log: string[] = [];
  try {
    const res = await appWith(steps, chained, log).request('/');
    return { status: res.status, body: await res.text(), headers: [...res.headers].sort(), log };
  } catch (err) {
    return { thrown: String(err), log };
  }
}

const cases: Record<string, Step[]> = {
  'every layer hands on': [around('a'), pass('b'), around('c')],
  'an inner layer answers without handing on': [around('a'), answer(409), around('c')],
  'an inner layer answers synchronously': [around('a'), pass('b'), answerNow(418), around('c')],
  'an inner layer throws before any await': [around('a'), pass('b'), throwNow('refused'), around('c')],
  'an inner layer rejects after an await': [around('a'), throwLater('later'), around('c')],
  'a layer throws after the route answered': [around('a'), throwLater('after next')],
  'the first layer throws': [throwNow('first'), around('a')],
  'a layer throws something that is not an Error': [around('a'), throwString],
  'a layer calls next() twice': [around('a'), nextTwice],
  'a layer calls next() twice, with layers after it': [around('a'), nextTwice, pass('b')],
  'a layer replaces the answer after next()': [around('a'), rewrite, pass('b')],
  'an error inside a replacing layer': [around('a'), rewrite, throwNow('inside')],
};

describe('chain: the same as hono layers of their own', () => {
  for (const [name, steps] of Object.entries(cases)) {
    test(name, async () => {
      const layered = await outcome(steps, false);
      const chained = await outcome(steps, true);
      assert.deepEqual(chained, layered);
    });
  }

  test('the cases exercise what they say (answers, errors, headers of the outer layers)', async () => {
    const refused = await outcome(cases['an inner layer throws before any await']!, true);
    assert.equal(refused.status, 500);
    assert.equal(refused.body, 'error: refused');
    assert.ok(refused.headers?.some(([k, v]) => k === 'x-a' && v === '500'), 'the outer layer saw the error answer');
    assert.ok(!refused.log.includes('c>'), 'the layers after the one that threw did not run');
    const twice = await outcome(cases['a layer calls next() twice']!, true);
    assert.equal(twice.body, 'error: next() called multiple times');
    assert.match(String((await outcome(cases['a layer throws something that is not an Error']!, true)).thrown), /not an Error/);
  });
});
