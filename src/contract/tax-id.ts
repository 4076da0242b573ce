// Brazilian tax ids, shared by the server's validation and the components' client checks (cpf-cnpj-validator does the math).
import { cnpj, cpf } from 'cpf-cnpj-validator';

/** Strips punctuation and spaces; keeps digits and the letters of an alphanumeric CNPJ, upper-cased. */
export function normalizeTaxId(value: string): string {
  return value.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

export const isValidCpf = (value: string): boolean => /^\d{11}$/.test(normalizeTaxId(value)) && cpf.isValid(normalizeTaxId(value));
export const isValidCnpj = (value: string): boolean => normalizeTaxId(value).length === 14 && cnpj.isValid(normalizeTaxId(value));

/** The view value as typed: `123.456.789-09`, `12.345.678/0001-95`; partial input is formatted as far as it goes. */
export function formatCpf(value: string): string {
  const d = value.replace(/\D/g, '').slice(0, 11);
  return d
    .replace(/^(\d{3})(\d)/, '$1.$2')
    .replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3')
    .replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2');
}

export function formatCnpj(value: string): string {
  const d = normalizeTaxId(value).slice(0, 14);
  return d
    .replace(/^(\w{2})(\w)/, '$1.$2')
    .replace(/^(\w{2})\.(\w{3})(\w)/, '$1.$2.$3')
    .replace(/^(\w{2})\.(\w{3})\.(\w{3})(\w)/, '$1.$2.$3/$4')
    .replace(/\/(\w{4})(\d{1,2})$/, '/$1-$2');
}
