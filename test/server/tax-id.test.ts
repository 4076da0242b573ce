// Our CPF/CNPJ check digits agree with cpf-cnpj-validator (the library they were taken from) on every id, valid or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import fc from 'fast-check';
import { isValidCnpj, isValidCpf } from '../../src/contract/tax-id';

const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
const alnum = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: n, maxLength: n });

test('CPF: the same answer as cpf-cnpj-validator for random and for valid ids', () => {
  fc.assert(fc.property(digits(11), (id) => assert.equal(isValidCpf(id), cpf.isValid(id), id)), { numRuns: 5000 });
  for (let i = 0; i < 2000; i++) {
    const id = cpf.generate();
    assert.equal(isValidCpf(id), true, id);
    assert.equal(isValidCpf(cpf.format(id)), true, id);
  }
  for (const d of '0123456789') assert.equal(isValidCpf(d.repeat(11)), false);
});

test('CNPJ, numeric and alphanumeric: the same answer as cpf-cnpj-validator', () => {
  fc.assert(fc.property(alnum(12), digits(2), (body, dv) => assert.equal(isValidCnpj(body + dv), cnpj.isValid(body + dv), body + dv)), { numRuns: 5000 });
  for (let i = 0; i < 2000; i++) {
    const id = cnpj.generate();
    assert.equal(isValidCnpj(id), true, id);
    assert.equal(isValidCnpj(cnpj.format(id)), true, id);
    // A changed check digit fails.
    const wrong = id.slice(0, 13) + String((Number(id[13]) + 1) % 10);
    assert.equal(isValidCnpj(wrong), false, wrong);
  }
  for (const d of '0123456789') assert.equal(isValidCnpj(d.repeat(14)), false);
});
