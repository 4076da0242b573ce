// The verification link's token (`v1.<claims>.<HMAC>`, docs/api.md's "Verification links"): made as described, refused when changed, made with another key or purpose, expired, or malformed — undefined, never a throw.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { deriveTokenKey, Tokens, VERIFICATION_LINK_PURPOSE } from '../../server/tokens';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const tokens = new Tokens(SECRET);
const linkKey = deriveTokenKey(SECRET, VERIFICATION_LINK_PURPOSE);
const PID = '0190a3c4-0000-7000-8000-000000000001';
const CID = '0190a3c4-0000-7000-8000-000000000002';
const named = { partnerId: PID, customerId: CID };

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64url');
/** A `v1` token made here from the format's description (not the server's code): the MAC over "v1." and the payload part. */
const signed = (payload: string, key: Uint8Array = linkKey, version = 'v1') => `${version}.${payload}.${createHmac('sha256', key).update(`${version}.${payload}`).digest('base64url')}`;
const now = () => Math.floor(Date.now() / 1000);
const claims = (over: Record<string, unknown> = {}) => ({ purpose: VERIFICATION_LINK_PURPOSE, pid: PID, sub: CID, jti: 'j-1', iat: now(), exp: now() + 3600, ...over });
const withClaims = (over: Record<string, unknown> = {}, key?: Uint8Array) => signed(b64(JSON.stringify(claims(over))), key);
const verify = (token: string) => tokens.verifyVerificationLink(token);
const partsOf = (token: string) => token.split('.') as [string, string, string];

describe('verification link tokens: the format', () => {
  test('a link is v1.<base64url claims>.<base64url HMAC-SHA256 under the link key>, and one made from that description verifies', async () => {
    assert.deepEqual(await verify(withClaims()), named, 'the control: a token made by the description');
    const token = tokens.verificationLinkToken(PID, CID);
    assert.match(token, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const [, payload] = partsOf(token);
    assert.equal(token, signed(payload), 'the MAC is HMAC-SHA256 of "v1." and the payload, under the key derived for links');
    const { jti, iat, ...rest } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    assert.deepEqual(rest, { purpose: 'verification_link', pid: PID, sub: CID, exp: iat + 24 * 3600 });
    assert.ok(Math.abs(iat - now()) <= 1);
    assert.match(jti, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(await verify(token), named);
  });

  test('any ids (non-ASCII, quotes, backslashes) come back exactly as they went in', async () => {
    for (const [pid, sub] of [['p', 'c'], ['partner-é', 'customer-ç'], ['a"b', 'c\\d'], ['💸', '\u2028']]) {
      const token = tokens.verificationLinkToken(pid!, sub!);
      assert.deepEqual(await verify(token), { partnerId: pid, customerId: sub }, `${pid} ${sub}`);
    }
  });

  test('each link has its own id, even minted in the same second for the same customer', async () => {
    const iat = now();
    const a = partsOf(tokens.verificationLinkToken(PID, CID, iat))[1];
    const b = partsOf(tokens.verificationLinkToken(PID, CID, iat))[1];
    assert.notEqual(JSON.parse(Buffer.from(a, 'base64url').toString()).jti, JSON.parse(Buffer.from(b, 'base64url').toString()).jti);
  });
});

describe('verification link tokens: what is refused', () => {
  test('a changed payload is refused; signed again with the link key, the same change verifies (the MAC refused it)', async () => {
    const [, payload, mac] = partsOf(tokens.verificationLinkToken(PID, CID));
    const other = b64(Buffer.from(payload, 'base64url').toString('utf8').replace(CID, '0190a3c4-0000-7000-8000-0000000000ff'));
    assert.equal(await verify(`v1.${other}.${mac}`), undefined, 'another customer under the old MAC');
    assert.deepEqual(await verify(signed(other)), { partnerId: PID, customerId: '0190a3c4-0000-7000-8000-0000000000ff' }, 'the control');
    const longer = b64(Buffer.from(payload, 'base64url').toString('utf8').replace(/"exp":(\d+)/, (_, e) => `"exp":${Number(e) + 10 ** 6}`));
    assert.equal(await verify(`v1.${longer}.${mac}`), undefined, 'a later expiry under the old MAC');
  });

  test('a changed MAC is refused: every character, and a last character that decodes to the same bytes', async () => {
    const [, payload, mac] = partsOf(tokens.verificationLinkToken(PID, CID));
    for (let i = 0; i < mac.length; i++) {
      const changed = `${mac.slice(0, i)}${mac[i] === 'A' ? 'B' : 'A'}${mac.slice(i + 1)}`;
      assert.equal(await verify(`v1.${payload}.${changed}`), undefined, `character ${i}`);
    }
    // 43 characters carry 258 bits for the MAC's 256: the last one's two low bits are ignored by a base64url decoder.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(mac.at(-1)!);
    const twin = `${mac.slice(0, -1)}${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]}`;
    assert.deepEqual(Buffer.from(twin, 'base64url'), Buffer.from(mac, 'base64url'));
    assert.equal(await verify(`v1.${payload}.${twin}`), undefined, 'the same MAC bytes in another text');
    assert.equal(await verify(`v1.${payload}.${mac}=`), undefined, 'padded');
  });

  test('another key or another purpose is refused: the session key, another purpose’s key, a widget session, another secret', async () => {
    assert.equal(await verify(withClaims({}, new TextEncoder().encode(SECRET))), undefined, 'signed with the widget-session key');
    assert.equal(await verify(withClaims({}, deriveTokenKey(SECRET, 'widget'))), undefined, 'the key of another purpose');
    assert.equal(await verify(withClaims({ purpose: 'widget' })), undefined, 'the link key, another purpose');
    assert.equal(await verify(withClaims({ purpose: undefined })), undefined, 'the link key, no purpose');
    assert.equal(await new Tokens(`${SECRET}-other`).verifyVerificationLink(tokens.verificationLinkToken(PID, CID)), undefined, 'another secret');
    const widget = await tokens.signWidgetSession({ partnerId: PID, customerId: CID, allowedOrigins: [], expiresAt: new Date(Date.now() + 60_000) });
    assert.equal(await verify(widget), undefined, 'a widget session');
    assert.ok(await tokens.verifyWidgetSession(widget), 'the control: it is a good widget session');
    assert.equal(await tokens.verifyWidgetSession(tokens.verificationLinkToken(PID, CID)), undefined, 'and a link is not a widget session');
    const [, payload] = partsOf(tokens.verificationLinkToken(PID, CID));
    assert.equal(await verify(signed(payload, linkKey, 'v2')), undefined, 'another version');
  });

  test('an expired link, one that ends before it starts, or one from the future is refused', async () => {
    assert.deepEqual(await verify(withClaims({ exp: now() + 2 })), named, 'the control: not yet expired');
    assert.equal(await verify(withClaims({ exp: now() })), undefined, 'expires now');
    assert.equal(await verify(withClaims({ iat: now() - 7200, exp: now() - 1 })), undefined, 'expired');
    assert.equal(await verify(withClaims({ iat: now() + 10, exp: now() + 5 })), undefined, 'ends before it starts');
    assert.equal(await verify(withClaims({ iat: now() + 3600, exp: now() + 7200 })), undefined, 'issued an hour from now');
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    assert.deepEqual(await verify((await tokens.signVerificationLink(PID, CID, { issuedAt: hoursAgo(23) })).token), named);
    assert.equal(await verify((await tokens.signVerificationLink(PID, CID, { issuedAt: hoursAgo(25) })).token), undefined);
  });

  test('malformed input is undefined, never a throw: parts, alphabet, JSON, types, size', async () => {
    const good = tokens.verificationLinkToken(PID, CID);
    const [, payload, mac] = partsOf(good);
    const json = JSON.stringify(claims());
    // Trailing spaces (still JSON) to a length that standard base64 pads with "==".
    const padded = Buffer.from(json.padEnd(json.length + ((1 - (json.length % 3) + 3) % 3))).toString('base64');
    assert.match(padded, /==$/);
    const cases: [string, string][] = [
      ['empty', ''],
      ['dots', '..'],
      ['the version alone', 'v1'],
      ['two parts', `v1.${payload}`],
      ['two parts, version dropped', `${payload}.${mac}`],
      ['four parts', `${good}.${mac}`],
      ['an empty part', `v1..${mac}`],
      ['an empty MAC', `v1.${payload}.`],
      ['standard base64 with padding, correctly MAC’d', signed(padded)],
      ['a space, correctly MAC’d', signed(`${b64(json)} `)],
      ['a non-ASCII character, correctly MAC’d', signed(`${b64(json)}é`)],
      ['not JSON', signed(b64('{"purpose":'))],
      ['not UTF-8', signed(b64(Buffer.from([0xff, 0xfe, 0x7b])))],
      ['an array', signed(b64(JSON.stringify([claims()])))],
      ['null', signed(b64('null'))],
      ['a string', signed(b64(JSON.stringify(json)))],
      ['a number', signed(b64('42'))],
      ['an empty object', signed(b64('{}'))],
      ['iat as text', withClaims({ iat: String(now()) })],
      ['exp as text', withClaims({ exp: String(now() + 3600) })],
      ['exp not whole', withClaims({ exp: now() + 3600.5 })],
      ['exp past safe integers', withClaims({ exp: 2 ** 60 })],
      ['pid a number', withClaims({ pid: 7 })],
      ['pid empty', withClaims({ pid: '' })],
      ['sub missing', withClaims({ sub: undefined })],
      ['sub an object', withClaims({ sub: { id: CID } })],
      ['jti missing', withClaims({ jti: undefined })],
      ['huge, correctly MAC’d', withClaims({ pad: 'x'.repeat(4096) })],
      ['huge', `v1.${'A'.repeat(5_000_000)}.${mac}`],
      ['huge, no dots', 'A'.repeat(5_000_000)],
    ];
    for (const [name, token] of cases) assert.equal(await verify(token), undefined, name);
    assert.equal(await verify(undefined as never), undefined, 'not a string');
    assert.deepEqual(await verify(withClaims({ extra: 'ignored' })), named, 'the control: well-formed claims with a field more verify');
  });

  test('no string, and no one-character change of a real link, verifies or throws', async () => {
    const good = tokens.verificationLinkToken(PID, CID);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^v1\.[A-Za-z0-9_=+/.-]{0,300}$/)), async (s) => {
        assert.equal(await verify(s), undefined);
      }),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(good.length - 1), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }), async (at, ch) => {
        fc.pre(good[at] !== ch);
        assert.equal(await verify(`${good.slice(0, at)}${ch}${good.slice(at + 1)}`), undefined);
      }),
      { numRuns: 300 },
    );
  });
});

describe('verification link tokens: links minted before v1', () => {
  // Until the release after this one: the JWT links minted before the v1 format keep working until they expire.
  const legacy = (over: { purpose?: string; aud?: string; exp?: number; key?: Uint8Array } = {}) =>
    new SignJWT({ purpose: over.purpose ?? VERIFICATION_LINK_PURPOSE, pid: PID })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(CID)
      .setAudience(over.aud ?? 'ramp:verify')
      .setJti('x')
      .setIssuedAt(now() - 60)
      .setExpirationTime(over.exp ?? now() + 3600)
      .sign(over.key ?? linkKey);

  test('a JWT link under the link key still verifies until it expires; any other JWT does not', async () => {
    assert.deepEqual(await verify(await legacy()), named);
    assert.equal(await verify(await legacy({ exp: now() - 1 })), undefined, 'expired');
    assert.equal(await verify(await legacy({ purpose: 'widget' })), undefined, 'another purpose');
    assert.equal(await verify(await legacy({ aud: 'ramp:widget' })), undefined, 'another audience');
    assert.equal(await verify(await legacy({ key: new TextEncoder().encode(SECRET) })), undefined, 'the widget-session key');
  });
});
