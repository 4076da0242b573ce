// The script-tag loader: it defines no component up front, fetches a tag's code when the tag appears (now or later),
// and the element renders in the page's language, English when the language is one we do not speak.
import { expect, waitUntil } from '@open-wc/testing';
import { delay, http, passthrough } from 'msw';
import { hasMessages } from '../../src/i18n';
import { load, rampTags } from '../../src/loader';
import { startMockBff, worker } from './support/mock-bff';

const mounted: Element[] = [];
function mount(markup: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = markup;
  document.body.append(holder);
  mounted.push(holder);
  return holder.firstElementChild as HTMLElement;
}

describe('the loader (/sdk/ramp-widget.js)', () => {
  afterEach(() => {
    for (const el of mounted.splice(0)) el.remove();
  });

  it('knows every tag and defines none of them until it appears', () => {
    expect(rampTags).to.include.members(['ramp-widget', 'ramp-onboarding', 'ramp-quote', 'ramp-pix-checkout', 'ramp-offramp', 'ramp-document-uploader', 'ramp-verification']);
    expect(customElements.get('ramp-offramp')).to.equal(undefined);
    expect(customElements.get('ramp-pix-checkout')).to.equal(undefined);
  });

  it('a tag added to the page later gets its code, and a property set before the upgrade survives it', async () => {
    expect(customElements.get('ramp-quote')).to.equal(undefined);
    const el = mount('<ramp-quote direction="sell"></ramp-quote>') as HTMLElement & { amount: string; updateComplete: Promise<boolean> };
    el.amount = '250';
    await waitUntil(() => customElements.get('ramp-quote'), 'ramp-quote was never defined', { timeout: 5_000 });
    expect(el).to.be.instanceOf(customElements.get('ramp-quote')!);
    await el.updateComplete;
    expect(el.amount).to.equal('250');
    expect(el.shadowRoot?.textContent).to.match(/Sell/);
  });

  it('a tag found in the page is defined only once its language\'s messages are in (it draws at once, no layout shift)', async () => {
    // The Spanish messages arrive late (the service worker holds them back): the tag must still wait for them.
    await startMockBff();
    worker.use(
      http.get(/\/i18n\/messages\/es\//, async () => {
        await delay(600);
        return passthrough();
      }),
    );
    try {
      expect(customElements.get('ramp-pix-checkout')).to.equal(undefined);
      expect(hasMessages('es', ['core'])).to.equal(false);
      const defined = customElements.whenDefined('ramp-pix-checkout').then(() => hasMessages('es', ['core']));
      mount('<ramp-pix-checkout lang="es"></ramp-pix-checkout>');
      expect(await defined, 'Spanish was in when the tag was defined').to.equal(true);
    } finally {
      worker.resetHandlers();
      worker.stop();
    }
  });

  it('load(tag, after) fetches at once and defines the tag only once `after` settles', async () => {
    let release!: () => void;
    const after = new Promise<void>((resolve) => (release = resolve));
    const loading = load('ramp-offramp', after);
    await new Promise((r) => setTimeout(r, 300));
    expect(customElements.get('ramp-offramp'), 'not before `after`').to.equal(undefined);
    release();
    expect(await loading).to.equal(customElements.get('ramp-offramp'));
  });

  it('a tag nested in added markup is found too', async () => {
    mount('<section><div><ramp-document-uploader></ramp-document-uploader></div></section>');
    await waitUntil(() => customElements.get('ramp-document-uploader'), 'ramp-document-uploader was never defined', { timeout: 5_000 });
  });

  it('fetches only the language the element speaks; an unknown language falls back to the browser\'s, then English', async () => {
    const el = mount('<ramp-onboarding lang="xx-YY"></ramp-onboarding>') as HTMLElement & { updateComplete: Promise<boolean> };
    await waitUntil(() => customElements.get('ramp-onboarding'), 'ramp-onboarding was never defined', { timeout: 5_000 });
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('#title')?.textContent).to.equal('Open your account');
    expect(hasMessages('en', ['core'])).to.equal(true);
    expect(hasMessages('pt-BR', ['core']), 'no Portuguese on an English page').to.equal(false);

    const pt = mount('<ramp-onboarding lang="pt-PT"></ramp-onboarding>') as HTMLElement & { updateComplete: Promise<boolean> };
    await pt.updateComplete;
    expect(pt.shadowRoot?.querySelector('#title')?.textContent).to.equal('Abra sua conta');
  });

  it('load() defines a tag on demand (for tags inside a shadow root the loader cannot see)', async () => {
    const constructor = await load('ramp-verification');
    expect(customElements.get('ramp-verification')).to.equal(constructor);
  });
});
