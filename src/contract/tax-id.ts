// Brazilian tax ids, shared by the server's validation and the components' client checks.
// The check digits are Receita Federal's modulo 11 (CPF weights 2..11, CNPJ weights 2..9 repeating, alphanumeric CNPJ
// characters valued by char code − 48). They were computed by cpf-cnpj-validator, whose default-object export cannot be
// tree-shaken into the first onboarding step; test/server/tax-id.test.ts keeps that library as the oracle these ten
// lines must agree with.

function checkDigit(digits: string, maxWeight: number): number {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === maxWeight ? 2 : weight + 1) sum += (digits.charCodeAt(i) - 48) * weight;
  const mod = sum % 11;
  return mod < 2 ? 0 : 11 - mod;
}

function checkDigitsMatch(id: string, maxWeight: number): boolean {
  if (/^(.)\1*$/.test(id)) return false; // 000…0 to 999…9 pass the arithmetic but were never issued
  let body = id.slice(0, -2);
  body += checkDigit(body, maxWeight);
  body += checkDigit(body, maxWeight);
  return body === id;
}

const cpf = { isValid: (id: string) => checkDigitsMatch(id, 11) };
const cnpj = { isValid: (id: string) => /^[0-9A-Z]{12}\d{2}$/.test(id) && checkDigitsMatch(id, 9) };

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
