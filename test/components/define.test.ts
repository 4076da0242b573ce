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

  it('importing define registers the KYC tags: uploader and hosted verification', async () => {
    const { RampDocumentUploader, RampVerification } = await import('../../src/index');
    await import('../../src/define');
    expect(customElements.get('ramp-document-uploader')).to.equal(RampDocumentUploader);
    expect(customElements.get('ramp-verification')).to.equal(RampVerification);
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
    // Like a real registry: defining a taken tag throws, a free one is recorded (the other tags still get defined).
    const registry = {
      get: (tag: string) => defined.get(tag),
      define: (tag: string, constructor: CustomElementConstructor) => {
        if (defined.has(tag)) throw new DOMException(`"${tag}" has already been used with this registry`, 'NotSupportedError');
        defined.set(tag, constructor);
      },
    } as unknown as CustomElementRegistry;
    expect(() => defineRampElements(registry)).not.to.throw();
    expect(defined.get('ramp-onboarding')).to.equal(Other);
    expect(defined.has('ramp-document-uploader') && defined.has('ramp-verification'), 'the free tags are defined').to.equal(true);
  });
});
