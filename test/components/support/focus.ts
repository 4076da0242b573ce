// Focus assertions that never hand a DOM node to chai: a failing `expect(node).to.equal(other)` makes the runner
// serialise a component's whole object graph, and the file then hangs until testsFinishTimeout instead of failing.
import { expect } from '@open-wc/testing';

/** `button#id[data-testid=x] "text"`: enough to tell which control a person is on. */
export function describeNode(node: Element | null | undefined): string {
  if (!node) return 'nothing';
  const id = node.id ? `#${node.id}` : '';
  const testid = node.getAttribute('data-testid');
  const label = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return `${node.localName}${id}${testid ? `[data-testid=${testid}]` : ''}${label ? ` "${label}"` : ''}`;
}

export function expectFocus(actual: Element | null | undefined, expected: Element | null | undefined, message?: string): void {
  const what = `focus is on ${describeNode(actual)}, expected ${describeNode(expected)}`;
  expect(actual === expected && expected != null, message ? `${message}: ${what}` : what).to.equal(true);
}
