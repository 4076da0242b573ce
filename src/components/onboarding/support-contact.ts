// The partner's support contact as a link: an email (mailto:), a phone number (tel:) or an https: address; anything else is no link.

export interface SupportLink {
  href: string;
  text: string;
}

const EMAIL = /^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+$/;
const PHONE = /^\+?[\d\s().-]+$/;

export function supportLink(contact: string | undefined): SupportLink | undefined {
  const text = (contact ?? '').trim();
  if (!text) return undefined;
  if (EMAIL.test(text)) return { href: `mailto:${text}`, text };
  if (PHONE.test(text)) {
    const digits = text.replace(/\D/g, '');
    if (digits.length < 6 || digits.length > 15) return undefined;
    return { href: `tel:${text.startsWith('+') ? '+' : ''}${digits}`, text };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  // Only https: a `javascript:` or `data:` contact must never become a link.
  if (url.protocol !== 'https:' || !url.hostname.includes('.')) return undefined;
  return { href: url.href, text: `${url.host}${url.pathname === '/' ? '' : url.pathname}` };
}
