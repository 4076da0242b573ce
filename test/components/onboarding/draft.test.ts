// `keep-draft`: an unfinished first step survives a reload (a new element), without the tax id.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/onboarding';
import type { RampOnboarding } from '../../../src/components/onboarding/onboarding';

const KEY = 'ramp-onboarding-draft';

async function type(el: RampOnboarding, name: string, value: string): Promise<void> {
  const input = el.shadowRoot!.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

describe('<ramp-onboarding keep-draft>', () => {
  beforeEach(() => localStorage.removeItem(KEY));
  after(() => localStorage.removeItem(KEY));

  it('keeps the typed details, never the tax id, and restores them in a new element', async () => {
    const first = await fixture<RampOnboarding>(html`<ramp-onboarding keep-draft lang="en"></ramp-onboarding>`);
    await type(first, 'name', 'Ana Souza');
    await type(first, 'taxId', '52998224725');
    await type(first, 'email', 'ana@example.com');
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, string>;
    expect(saved).to.include({ name: 'Ana Souza', email: 'ana@example.com', type: 'INDIVIDUAL' });
    expect(JSON.stringify(saved)).not.to.include('52998224725');
    expect(saved).not.to.have.property('taxId');
    first.remove();

    const again = await fixture<RampOnboarding>(html`<ramp-onboarding keep-draft lang="en"></ramp-onboarding>`);
    expect(again.shadowRoot!.querySelector<HTMLInputElement>('[name="name"]')!.value).to.equal('Ana Souza');
    expect(again.shadowRoot!.querySelector<HTMLInputElement>('[name="email"]')!.value).to.equal('ana@example.com');
    expect(again.shadowRoot!.querySelector<HTMLInputElement>('[name="taxId"]')!.value).to.equal('');
  });

  it('without keep-draft nothing is stored', async () => {
    const el = await fixture<RampOnboarding>(html`<ramp-onboarding lang="en"></ramp-onboarding>`);
    await type(el, 'name', 'Ana Souza');
    expect(localStorage.getItem(KEY)).to.equal(null);
  });
});
