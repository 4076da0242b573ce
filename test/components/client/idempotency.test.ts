// Idempotency keys and the default BFF address: one key per distinct body, reused for retries; /bff beside the script's folder.
import { expect } from '@open-wc/testing';
import { defaultApiBase } from '../../../src/client/api-base';
import { IdempotencyKeys, newIdempotencyKey } from '../../../src/client/idempotency';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('a key is a random UUID v4', () => {
    const a = newIdempotencyKey();
    expect(a).to.match(uuidV4);
    expect(newIdempotencyKey()).not.to.equal(a);
  });

  it('the same body asks for the same key: a retry or a double click is the same attempt', () => {
    const keys = new IdempotencyKeys();
    const first = keys.keyFor({ type: 'INDIVIDUAL', name: 'Ana' });
    expect(keys.keyFor({ type: 'INDIVIDUAL', name: 'Ana' })).to.equal(first);
  });

  it('a changed body is a new attempt with a new key', () => {
    const keys = new IdempotencyKeys();
    const first = keys.keyFor({ name: 'Ana' });
    const second = keys.keyFor({ name: 'Ana Souza' });
    expect(second).not.to.equal(first);
    expect(keys.keyFor({ name: 'Ana' })).not.to.equal(first);
  });

  it('after success, equal data is a new attempt', () => {
    const keys = new IdempotencyKeys();
    const first = keys.keyFor({ name: 'Ana' });
    keys.reset();
    expect(keys.keyFor({ name: 'Ana' })).not.to.equal(first);
  });
});

describe('default BFF address', () => {
  it('is /bff on the origin that served /sdk/ramp-widget.js', () => {
    expect(defaultApiBase('https://ramp.example/sdk/ramp-widget.js')).to.equal('https://ramp.example/bff');
    expect(defaultApiBase('http://localhost:8787/sdk/ramp-widget.js?v=1')).to.equal('http://localhost:8787/bff');
  });
});
