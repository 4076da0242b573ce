// Driving a page by keyboard alone in the e2e tests: Tab to a control (through shadow roots), choose an option, check the focus ring.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/**
 * Whether the element focused now, followed into open shadow roots, matches `selector`; `ramp-quote >> #title` also asks
 * that it sit in that element's shadow root. Described as `tag#id[data-testid]` (or `body`) for failure messages.
 */
async function focused(page: Page, selector: string): Promise<{ matches: boolean; description: string }> {
  return page.evaluate((selector) => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el) return { matches: false, description: 'nothing' };
    const [hostTag, inner] = selector.includes(' >> ') ? selector.split(' >> ') : [undefined, selector];
    const root = el.getRootNode();
    const inHost = !hostTag || (root instanceof ShadowRoot && root.host.matches(hostTag));
    const id = el.id ? `#${el.id}` : '';
    const testid = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
    const where = root instanceof ShadowRoot ? `${root.host.localName} >> ` : '';
    return { matches: inHost && el.matches(inner!), description: `${where}${el.localName}${id}${testid}` };
  }, selector);
}

/**
 * Presses Tab (Shift+Tab with `back`) until the deep focused element matches `selector`, and checks that it shows its
 * focus; a control that never takes focus fails with the path focus took. Already there: no key is pressed.
 */
export async function tabTo(page: Page, selector: string, { back = false, max = 40 } = {}): Promise<void> {
  const path: string[] = [];
  for (let presses = 0; presses <= max; presses++) {
    const now = await focused(page, selector);
    if (now.matches) return assertVisibleFocus(page);
    path.push(now.description);
    if (presses < max) await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`${selector} never took focus in ${max} ${back ? 'Shift+Tab' : 'Tab'} presses; focus went: ${path.join(' → ')}`);
}

/** Waits until focus is on `selector` by itself (a step change that moves focus), without pressing anything. */
export async function focusLandsOn(page: Page, selector: string, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = '';
  while (Date.now() < deadline) {
    const now = await focused(page, selector);
    if (now.matches) return;
    last = now.description;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`focus did not land on ${selector} in ${timeout} ms; it is on ${last}`);
}

/** Tab to `selector` and type `text` into it. */
export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.type(text);
}

/** Tab to `selector` and press a key on it (Enter on a button, Space on a checkbox). */
export async function pressOn(page: Page, selector: string, key: 'Enter' | 'Space'): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.press(key);
}

/** The deep focused element's `value` (a select's, an input's). */
const focusedValue = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return { value: (el as HTMLSelectElement).value, options: [...((el as HTMLSelectElement).options ?? [])].map((o) => o.value) };
  });

/** Tab to a closed <select> and move to the option with `value` by arrow keys, as a person does without opening it. */
export async function chooseOption(page: Page, selector: string, value: string): Promise<void> {
  await tabTo(page, selector);
  const { value: from, options } = await focusedValue(page);
  assert.ok(options.includes(value), `${selector} has no option ${value}: ${options.join(' ')}`);
  const key = options.indexOf(value) > options.indexOf(from) ? 'ArrowDown' : 'ArrowUp';
  for (let presses = 0; presses < options.length && (await focusedValue(page)).value !== value; presses++) await page.keyboard.press(key);
  assert.equal((await focusedValue(page)).value, value, `${selector}: the arrow keys did not reach ${value}`);
}

/** Tab into a radio group (focus lands on its checked radio) and move with the arrow keys until `selector` is checked. */
export async function chooseRadio(page: Page, groupSelector: string, selector: string): Promise<void> {
  await tabTo(page, groupSelector);
  for (let presses = 0; presses < 10 && !(await focused(page, selector)).matches; presses++) await page.keyboard.press('ArrowRight');
  const state = await page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return (el as HTMLInputElement).checked;
  });
  assert.ok((await focused(page, selector)).matches && state, `the arrow keys did not check ${selector}`);
}

/** The focused control shows where focus is: `:focus-visible` and a ring (outline or box-shadow, on it or on its label). */
export async function assertVisibleFocus(page: Page): Promise<void> {
  const seen = await page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return { ok: false, what: 'body' };
    // No named function in here: tsx would wrap it in a helper the page does not have.
    const label = el.closest('label');
    const ring = [el, label].some((e) => {
      if (!e) return false;
      const s = getComputedStyle(e);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow !== 'none' && !s.boxShadow.includes('inset'));
    });
    return { ok: el.matches(':focus-visible') && ring, what: `${el.localName}#${el.id}[data-testid=${el.getAttribute('data-testid')}]` };
  });
  assert.ok(seen.ok, `no visible focus ring on ${seen.what}`);
}
