// i18n: catalogue parity, interpolation, plural forms, locale resolution through the DOM, Intl formatting.
import { expect, fixture, html } from '@open-wc/testing';
import {
  bundles,
  formatDay,
  formatMoney,
  inheritedLang,
  interpolate,
  loadMessages,
  locales,
  matchLocale,
  messagesFor,
  resolveLocale,
  translate,
  translatePlural,
} from '../../../src/i18n';

const paramsOf = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

before(() => Promise.all(locales.map((locale) => loadMessages(locale, bundles))));

describe('i18n catalogues', () => {
  it('every language has exactly the English keys', () => {
    const english = Object.keys(messagesFor('en')).sort();
    for (const locale of locales) expect(Object.keys(messagesFor(locale)).sort(), locale).to.deep.equal(english);
  });

  it('every translation uses the same {params} as the English message', () => {
    const english = messagesFor('en');
    for (const locale of locales) {
      const messages = messagesFor(locale);
      for (const key of Object.keys(english) as (keyof typeof english)[]) {
        expect(paramsOf(messages[key]), `${locale} ${key}`).to.deep.equal(paramsOf(english[key]));
      }
    }
  });

  it('speaks English, Brazilian Portuguese and Spanish; each bundle of each language has exactly its English keys', async () => {
    expect([...locales]).to.deep.equal(['en', 'pt-BR', 'es']);
    const load = {
      en: { core: () => import('../../../src/i18n/messages/en/core').then((m) => m.core), kyc: () => import('../../../src/i18n/messages/en/kyc').then((m) => m.kyc), money: () => import('../../../src/i18n/messages/en/money').then((m) => m.money) },
      'pt-BR': { core: () => import('../../../src/i18n/messages/pt-BR/core').then((m) => m.core), kyc: () => import('../../../src/i18n/messages/pt-BR/kyc').then((m) => m.kyc), money: () => import('../../../src/i18n/messages/pt-BR/money').then((m) => m.money) },
      es: { core: () => import('../../../src/i18n/messages/es/core').then((m) => m.core), kyc: () => import('../../../src/i18n/messages/es/kyc').then((m) => m.kyc), money: () => import('../../../src/i18n/messages/es/money').then((m) => m.money) },
    } as const;
    for (const bundle of bundles) {
      const english = Object.keys(await load.en[bundle]()).sort();
      for (const locale of locales) {
        const keys = Object.keys(await load[locale][bundle]()).sort();
        const missing = english.filter((k) => !keys.includes(k));
        const extra = keys.filter((k) => !english.includes(k));
        expect({ missing, extra }, `${locale}/${bundle}`).to.deep.equal({ missing: [], extra: [] });
      }
    }
  });

  it('a translation is not English left in place: few messages equal the English one', () => {
    const english = messagesFor('en');
    for (const locale of locales.filter((l) => l !== 'en')) {
      const messages = messagesFor(locale);
      const same = (Object.keys(english) as (keyof typeof english)[]).filter((k) => messages[k] === english[k] && /[a-z]{4,}/i.test(english[k].replace(/\{\w+\}/g, '')));
      // Brand and code words (PIX, IBAN, CPF…) stay as they are; whole English sentences may not.
      expect(same.filter((k) => english[k].split(' ').length > 2), locale).to.deep.equal([]);
    }
  });

  it('lang="es" (and es-MX, es-419) is Spanish, not a silent fallback to English', () => {
    expect(matchLocale('es')).to.equal('es');
    expect(matchLocale('es-MX')).to.equal('es');
    expect(matchLocale('es-419')).to.equal('es');
    expect(translate('es', 'form.submit')).to.equal('Crear cuenta');
    expect(translatePlural('es', 'form.invalid', 1)).to.equal('1 campo necesita tu atención.');
    expect(translatePlural('es', 'form.invalid', 3)).to.equal('3 campos necesitan tu atención.');
  });

  it('no message is empty', () => {
    for (const locale of locales) {
      for (const [key, text] of Object.entries(messagesFor(locale))) expect(text.trim(), `${locale} ${key}`).not.to.equal('');
    }
  });
});

describe('interpolation', () => {
  it('fills {params} and keeps unknown ones visible', () => {
    expect(interpolate('Hi {name}, {count} left', { name: 'Ana', count: 2 })).to.equal('Hi Ana, 2 left');
    expect(interpolate('Hi {name}', {})).to.equal('Hi {name}');
  });

  it('translates in the chosen language', () => {
    expect(translate('en', 'error.underage', { age: 18 })).to.equal('You must be at least 18 years old.');
    expect(translate('pt-BR', 'error.underage', { age: 18 })).to.equal('Você precisa ter pelo menos 18 anos.');
  });

  it('picks the plural form by the language rules', () => {
    expect(translatePlural('en', 'form.invalid', 1)).to.equal('1 field needs your attention.');
    expect(translatePlural('en', 'form.invalid', 3)).to.equal('3 fields need your attention.');
    expect(translatePlural('pt-BR', 'form.invalid', 1)).to.equal('1 campo precisa da sua atenção.');
    expect(translatePlural('pt-BR', 'form.invalid', 2)).to.equal('2 campos precisam da sua atenção.');
  });
});

describe('locale matching', () => {
  it('matches exactly, case-insensitively, then by language', () => {
    expect(matchLocale('pt-BR')).to.equal('pt-BR');
    expect(matchLocale('PT-br')).to.equal('pt-BR');
    expect(matchLocale('pt_BR')).to.equal('pt-BR');
    expect(matchLocale('pt')).to.equal('pt-BR');
    expect(matchLocale('pt-PT')).to.equal('pt-BR');
    expect(matchLocale('en-GB')).to.equal('en');
    expect(matchLocale('fr')).to.equal(undefined);
    expect(matchLocale('')).to.equal(undefined);
  });
});

describe('locale resolution', () => {
  it("the element's own lang wins over its ancestors", async () => {
    const el = await fixture(html`<div lang="en"><span lang="pt-BR"></span></div>`);
    expect(resolveLocale(el.querySelector('span')!, ['en-US'])).to.equal('pt-BR');
  });

  it('the closest ancestor [lang] is used, across shadow roots', async () => {
    const host = await fixture(html`<div lang="pt-BR"><div></div></div>`);
    const inner = host.querySelector('div')!;
    const root = inner.attachShadow({ mode: 'open' });
    const deep = document.createElement('p');
    root.append(deep);
    expect(inheritedLang(deep)).to.equal('pt-BR');
    expect(resolveLocale(deep, ['en-US'])).to.equal('pt-BR');
  });

  it('an empty lang does not count, so the next declared one applies', async () => {
    const el = await fixture(html`<div lang="pt-BR"><span lang=""></span></div>`);
    expect(resolveLocale(el.querySelector('span')!, ['en-US'])).to.equal('pt-BR');
  });

  it('an unsupported page language falls back to the browser languages, then English', async () => {
    const el = await fixture(html`<div lang="fr"><span></span></div>`);
    const span = el.querySelector('span')!;
    expect(resolveLocale(span, ['de-DE', 'pt-BR'])).to.equal('pt-BR');
    expect(resolveLocale(span, ['de-DE'])).to.equal('en');
  });

  it('with no lang anywhere, the browser language decides', () => {
    const orphan = document.createElement('span');
    expect(resolveLocale(orphan, ['pt-BR', 'en'])).to.equal('pt-BR');
    expect(resolveLocale(orphan, [])).to.equal('en');
  });
});

describe('Intl formatting', () => {
  it('a calendar day is formatted without shifting by time zone', () => {
    expect(formatDay('1990-05-17', 'pt-BR', 'short')).to.equal('17/05/1990');
    expect(formatDay('1990-05-17', 'en', 'long')).to.equal('May 17, 1990');
  });

  it('money keeps every digit of a decimal string (no float rounding)', () => {
    expect(formatMoney('1234567.89', 'BRL', 'pt-BR')).to.equal('R$\u00a01.234.567,89');
    expect(formatMoney('9007199254740993.01', 'USD', 'en')).to.equal('$9,007,199,254,740,993.01');
    expect(formatMoney('0.000001', 'USD', 'en', 6)).to.equal('$0.000001');
  });
});
