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

  it('every boolean property is a Boolean one: set as a property (React 19, Vue) or an attribute, true and false', async () => {
    const { defineRampElements } = await import('../../src/define');
    defineRampElements();
    const seen: string[] = [];
    for (const tag of ['ramp-widget', 'ramp-onboarding', 'ramp-verification', 'ramp-document-uploader', 'ramp-quote', 'ramp-pix-checkout', 'ramp-offramp']) {
      const constructor = customElements.get(tag) as unknown as { elementProperties: Map<string, { type?: unknown; attribute?: string | boolean; state?: boolean }> };
      for (const [name, options] of constructor.elementProperties) {
        if (options.state || options.attribute === false) continue; // inner state, not the element's API
        // Not connected (nothing renders or fetches): attributes and properties still convert.
        const el = document.createElement(tag) as unknown as HTMLElement & Record<string, unknown>;
        if (typeof el[name] !== 'boolean') continue;
        seen.push(`${tag}.${name}`);
        expect(options.type, `${tag}.${name} is declared with type: Boolean`).to.equal(Boolean);
        const attribute = typeof options.attribute === 'string' ? options.attribute : name.toLowerCase();
        el.setAttribute(attribute, '');
        expect(el[name], `${tag} [${attribute}]`).to.equal(true);
        el[name] = false;
        expect(el[name], `${tag}.${name} = false after the attribute`).to.equal(false);
        el[name] = true;
        expect(el[name]).to.equal(true);
        el.removeAttribute(attribute);
        expect(el[name], `${tag} without [${attribute}]`).to.equal(false);
      }
    }
    expect(seen).to.include.members(['ramp-widget.sandbox', 'ramp-pix-checkout.sandbox', 'ramp-verification.sandbox', 'ramp-quote.hideDirection', 'ramp-onboarding.keepDraft']);
  });
});
