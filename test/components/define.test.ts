// Registration: the index has no side effects; define.ts registers every tag and tolerates tags already defined.
import { expect } from '@open-wc/testing';

describe('registering the elements', () => {
  it('importing the index defines no tag', async () => {
    const lib = await import('../../src/index');
    expect(lib.RampOnboarding).to.be.a('function');
    expect(customElements.get('ramp-onboarding')).to.equal(undefined);
  });

  it('importing define registers every tag', async () => {
    const { RampOnboarding } = await import('../../src/index');
    await import('../../src/define');
    expect(customElements.get('ramp-onboarding')).to.equal(RampOnboarding);
    expect(document.createElement('ramp-onboarding')).to.be.instanceOf(RampOnboarding);
  });

  it('defining again, as a second copy of the script would, does not throw and keeps the first definition', async () => {
    const { defineRampElements } = await import('../../src/define');
    const first = customElements.get('ramp-onboarding');
    expect(() => defineRampElements()).not.to.throw();
    expect(customElements.get('ramp-onboarding')).to.equal(first);
  });

  it('a tag some other script already took is left alone', async () => {
    const { defineRampElements } = await import('../../src/define');
    class Other extends HTMLElement {}
    const defined = new Map<string, CustomElementConstructor>([['ramp-onboarding', Other]]);
    const registry = {
      get: (tag: string) => defined.get(tag),
      define: (tag: string) => {
        throw new DOMException(`"${tag}" has already been used with this registry`, 'NotSupportedError');
      },
    } as unknown as CustomElementRegistry;
    expect(() => defineRampElements(registry)).not.to.throw();
    expect(defined.get('ramp-onboarding')).to.equal(Other);
  });
});
