// Tax id view formatting while typing (CPF, CNPJ including the alphanumeric kind), keeping the caret where the user is typing.
import { formatCnpj, formatCpf, normalizeTaxId } from '../../contract/tax-id';
import type { CustomerType } from './model';

/** Brazilian customers (no country yet, or BRA) have a CPF or CNPJ; anyone else has their own country's id, left unformatted. */
export type TaxIdKind = 'cpf' | 'cnpj' | 'other';

export function taxIdKind(type: CustomerType, country: string): TaxIdKind {
  if (country && country !== 'BRA') return 'other';
  return type === 'INDIVIDUAL' ? 'cpf' : 'cnpj';
}

/** The longest view value each kind can have: `123.456.789-09` and `11.222.333/0001-81`. */
export const taxIdMaxLength: Record<TaxIdKind, number> = { cpf: 14, cnpj: 18, other: 40 };

/** Characters that count: CPF is digits only; CNPJ may hold letters (the 2026 alphanumeric format). */
const significant: Record<TaxIdKind, RegExp> = { cpf: /\d/, cnpj: /[0-9A-Za-z]/, other: /[^\s]/ };

export function formatTaxId(kind: TaxIdKind, raw: string): string {
  switch (kind) {
    case 'cpf':
      return formatCpf(raw);
    case 'cnpj':
      return formatCnpj(raw);
    case 'other':
      return raw.toUpperCase();
  }
}

export interface Edit {
  value: string;
  caret: number;
}

/**
 * Formats what the input holds after a keystroke and puts the caret after the same number of significant characters
 * as before, so typing or deleting in the middle does not throw the caret to the end. A Backspace that only removed a
 * separator removes the character before it instead, otherwise the separator would come straight back.
 */
export function reformatTaxId(kind: TaxIdKind, raw: string, caret: number, previous = '', inputType = ''): Edit {
  const isSignificant = (c: string) => significant[kind].test(c);
  const count = (s: string) => Array.from(s).filter(isSignificant).length;
  let text = raw;
  let at = Math.max(0, Math.min(caret, raw.length));
  if (inputType === 'deleteContentBackward' && kind !== 'other' && count(raw) === count(previous) && raw.length < previous.length) {
    let i = at - 1;
    while (i >= 0 && !isSignificant(text[i]!)) i--;
    if (i >= 0) {
      text = text.slice(0, i) + text.slice(i + 1);
      at = i;
    }
  }
  const before = count(text.slice(0, at));
  const value = formatTaxId(kind, text);
  let position = 0;
  for (let seen = 0; position < value.length && seen < before; position++) {
    if (isSignificant(value[position]!)) seen++;
  }
  return { value, caret: Math.min(position, value.length) };
}

/** Re-fits a tax id to a new kind (when the type or country changes): CPF digits stay digits, a CNPJ keeps its letters. */
export function refitTaxId(kind: TaxIdKind, view: string): string {
  return formatTaxId(kind, normalizeTaxId(view));
}

/** Formats the tax id as typed, keeping the caret where the user is; returns the value for the form's model. */
export function taxIdTyped(event: InputEvent, kind: TaxIdKind, previous: string, root: DocumentOrShadowRoot | null): string {
  const input = event.target as HTMLInputElement;
  const edit = reformatTaxId(kind, input.value, input.selectionStart ?? input.value.length, previous, event.inputType);
  if (input.value !== edit.value) input.value = edit.value;
  if (root?.activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
  return edit.value;
}
