// The coalescer behind the customer read (server/store/coalesce.ts): reads that arrive while a statement is out share the
// next one, and never the one already sent (whose answer may predate a write the reader saw committed).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Coalescer } from '../../server/store/coalesce';

/** A load whose answers the test gives by hand, statement by statement. */
function manualLoad() {
  const calls: { ids: string[]; answer: (values: Record<string, string>) => void; fail: (error: Error) => void }[] = [];
  const load = (ids: string[]) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      calls.push({ ids, answer: (values) => resolve(new Map(Object.entries(values))), fail: reject });
    });
  return { calls, load };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('Coalescer', () => {
  test('a read alone goes out at once, in a statement of its own', async () => {
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const read = c.get('p1', 'a', load);
    assert.deepEqual(calls.map((x) => x.ids), [['a']]);
    calls[0]!.answer({ a: 'A' });
    assert.equal(await read, 'A');
    await settled();
    assert.equal(c.pending, 0, 'the group is gone once answered');
  });

  test('reads that arrive while a statement is out share the next one, each id once', async () => {
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const first = c.get('p1', 'a', load);
    const later = [c.get('p1', 'b', load), c.get('p1', 'c', load), c.get('p1', 'b', load)];
    assert.equal(calls.length, 1, 'nothing more goes out while the first statement is out');
    calls[0]!.answer({ a: 'A' });
    await first;
    await settled();
    assert.deepEqual(calls.map((x) => x.ids), [['a'], ['b', 'c']]);
    calls[1]!.answer({ b: 'B', c: 'C' });
    assert.deepEqual(await Promise.all(later), ['B', 'C', 'B']);
  });

  test('a read never takes the answer of a statement sent before it arrived', async () => {
    // The reader saw a write commit, then asked: the statement already out may have read the row before that write.
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const before = c.get('p1', 'a', load);
    const after = c.get('p1', 'a', load);
    calls[0]!.answer({ a: 'old' });
    assert.equal(await before, 'old');
    await settled();
    assert.equal(calls.length, 2, 'the later read went out in a statement of its own');
    calls[1]!.answer({ a: 'new' });
    assert.equal(await after, 'new');
  });

  test('an id the statement did not find answers undefined', async () => {
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const read = c.get('p1', 'missing', load);
    calls[0]!.answer({});
    assert.equal(await read, undefined);
  });

  test("a failed statement fails its own reads only; the next statement goes out", async () => {
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const first = c.get('p1', 'a', load);
    const second = c.get('p1', 'b', load);
    calls[0]!.fail(new Error('connection lost'));
    await assert.rejects(first, /connection lost/);
    await settled();
    calls[1]!.answer({ b: 'B' });
    assert.equal(await second, 'B');
    await settled();
    assert.equal(c.pending, 0);
  });

  test('a load that throws at once fails its reads, and the group goes on', async () => {
    const c = new Coalescer<string>();
    await assert.rejects(c.get('p1', 'a', () => { throw new Error('bad'); }), /bad/);
    const { calls, load } = manualLoad();
    const read = c.get('p1', 'a', load);
    calls[0]!.answer({ a: 'A' });
    assert.equal(await read, 'A');
  });

  test('groups do not wait for each other, and never share a statement', async () => {
    const c = new Coalescer<string>();
    const { calls, load } = manualLoad();
    const one = c.get('partner-1', 'a', load);
    const two = c.get('partner-2', 'a', load);
    assert.deepEqual(calls.map((x) => x.ids), [['a'], ['a']]);
    calls[1]!.answer({ a: 'of partner 2' });
    calls[0]!.answer({ a: 'of partner 1' });
    assert.deepEqual(await Promise.all([one, two]), ['of partner 1', 'of partner 2']);
  });

  test('at most maxBatch ids per statement; the rest go in the one after', async () => {
    const c = new Coalescer<string>(1, 2);
    const { calls, load } = manualLoad();
    const reads = ['a', 'b', 'c', 'd'].map((id) => c.get('p1', id, load));
    calls[0]!.answer({ a: 'A' });
    await settled();
    assert.deepEqual(calls[1]!.ids, ['b', 'c']);
    calls[1]!.answer({ b: 'B', c: 'C' });
    await settled();
    assert.deepEqual(calls[2]!.ids, ['d']);
    calls[2]!.answer({ d: 'D' });
    assert.deepEqual(await Promise.all(reads), ['A', 'B', 'C', 'D']);
  });

  test('maxInFlight statements of a group may be out at once', async () => {
    const c = new Coalescer<string>(2);
    const { calls, load } = manualLoad();
    const reads = ['a', 'b', 'c'].map((id) => c.get('p1', id, load));
    assert.deepEqual(calls.map((x) => x.ids), [['a'], ['b']]);
    calls[0]!.answer({ a: 'A' });
    calls[1]!.answer({ b: 'B' });
    await settled();
    calls[2]!.answer({ c: 'C' });
    assert.deepEqual(await Promise.all(reads), ['A', 'B', 'C']);
  });
});
