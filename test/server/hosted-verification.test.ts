// The hosted verification link and page: short-lived links of their own purpose and key, fresh on every read, never in
// events; the page's API serves only what the page shows, and after a final decision the outcome alone; a strict CSP.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { deriveTokenKey } from '../../server/tokens';
import { client, individual, newPartner, type TestServer, startTestServer } from './harness';
import { approvedIndividual, JPG, readyIndividual } from './kyc-helpers';

let server: TestServer;
before(async () => {
  server = await startTestServer({ RAMP_SANDBOX_REVIEW_MS: '60000' });
});
after(() => server.close());

const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;
const hosted = (token: string) => client(server, token);
const secret = () => server.deps.config.RAMP_SESSION_SECRET!;
/** The claims of a link's token (`v1.<base64url claims>.<MAC>`). */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string; iat: number; exp: number };
/** A `v1` link token made here, as docs/api.md describes the format. */
const v1Token = (claims: object, key: Uint8Array) => {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `v1.${payload}.${createHmac('sha256', key).update(`v1.${payload}`).digest('base64url')}`;
};

async function linkOf(api: ReturnType<typeof client>, id: string): Promise<string> {
  const res = await api.get(`/v2/customers/${id}`);
  assert.equal(res.status, 200, res.text);
  return tokenOf(res.body.verification.link);
}

describe('verification links', () => {
  test('a link expires: 24 hours by default, configurable; an expired link is a 401 API and a page that says so', async () => {
    const { api, partnerId } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const fresh = await linkOf(api, c.id);
    const claims = claimsOf(fresh);
    assert.equal(claims.exp - claims.iat, 24 * 3600);
    assert.equal((await hosted(fresh).get('/verify/api/customer')).status, 200);

    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    const stillValid = (await server.deps.tokens.signVerificationLink(partnerId, c.id, { issuedAt: hoursAgo(23) })).token;
    assert.equal((await hosted(stillValid).get('/verify/api/customer')).status, 200);
    const expired = (await server.deps.tokens.signVerificationLink(partnerId, c.id, { issuedAt: hoursAgo(25) })).token;
    const refused = await hosted(expired).get('/verify/api/customer');
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.body.code, 'UNAUTHENTICATED');
    assert.equal((await hosted(expired).get('/verify/api/customer/documents')).status, 401);
    const page = await server.app.request(`/verify/${expired}`);
    assert.equal(page.status, 404);
    assert.match(await page.text(), /expired/);

    const short = await startTestServer({ RAMP_VERIFICATION_LINK_TTL_HOURS: '2' });
    try {
      const other = client(short, short.apiKey);
      const { body: s } = await other.post('/v2/customers', individual());
      const link = claimsOf(await linkOf(other, s.id));
      assert.equal(link.exp - link.iat, 2 * 3600);
    } finally {
      await short.close();
    }
  });

  test('a token made for another purpose is not a link, and a link is not a widget session', async () => {
    const { api, apiKey, partnerId } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const widget = (await client(server, apiKey).post('/v2/widget-sessions', { customerId: c.id })).body.token as string;
    assert.equal((await hosted(widget).get('/verify/api/customer')).status, 401, 'a widget session is not a link');
    assert.equal((await server.app.request(`/verify/${widget}`)).status, 404);

    const now = Math.floor(Date.now() / 1000);
    const linkKey = deriveTokenKey(secret(), 'verification_link');
    const made = (purpose: string, key: Uint8Array) => v1Token({ purpose, pid: partnerId, sub: c.id, jti: 'x', iat: now, exp: now + 3600 }, key);
    assert.equal((await hosted(made('verification_link', linkKey)).get('/verify/api/customer')).status, 200, 'the control: the right purpose works');
    assert.equal((await hosted(made('widget', linkKey)).get('/verify/api/customer')).status, 401, 'the link key with another purpose');
    assert.equal((await hosted(made('verification_link', new TextEncoder().encode(secret()))).get('/verify/api/customer')).status, 401, 'the widget-session key');
    // A JWT link as minted before the v1 format: accepted until the release after this one, so that links already sent keep working.
    const jwtLink = (purpose: string) =>
      new SignJWT({ purpose, pid: partnerId }).setProtectedHeader({ alg: 'HS256' }).setSubject(c.id).setAudience('ramp:verify').setJti('x').setIssuedAt(now).setExpirationTime(now + 3600).sign(linkKey);
    assert.equal((await hosted(await jwtLink('verification_link')).get('/verify/api/customer')).status, 200, 'a JWT link minted before v1');
    assert.equal((await hosted(await jwtLink('widget')).get('/verify/api/customer')).status, 401, 'a JWT under the link key with another purpose');
    // The old shape: the widget-session secret itself, no expiry. Such links stop working.
    const legacy = await new SignJWT({ typ: 'verify', pid: partnerId }).setProtectedHeader({ alg: 'HS256' }).setSubject(c.id).sign(new TextEncoder().encode(secret()));
    assert.equal((await hosted(legacy).get('/verify/api/customer')).status, 401, 'a link signed with the widget-session secret');

    const link = await linkOf(api, c.id);
    assert.equal((await client(server, link).get('/bff/session')).status, 401, 'a link is not a widget session');
  });

  test('every read mints a new link; each works on its own', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const first = await linkOf(api, c.id);
    const second = await linkOf(api, c.id);
    assert.notEqual(first, second);
    assert.notEqual(claimsOf(first).jti, claimsOf(second).jti);
    const listed = (await api.get('/v2/customers')).body.data[0].verification.link as string;
    assert.ok(![first, second].includes(tokenOf(listed)));
    for (const t of [first, second, tokenOf(listed)]) assert.equal((await hosted(t).get('/verify/api/customer')).body.id, c.id);
  });

  test('no event (and so no webhook or GET /v2/events) carries a link or any token', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await approvedIndividual(server, api, apiKey);
    const events = await api.get(`/v2/events?customerId=${id}`);
    assert.deepEqual(events.body.data.map((e: { eventType: string }) => e.eventType), ['customer.approved', 'customer.under_verification', 'customer.created']);
    for (const e of events.body.data) {
      assert.equal(e.data.verification.link, undefined, e.eventType);
      assert.ok(e.data.verification.status, e.eventType);
    }
    assert.ok(!events.text.includes('/verify/'), events.text);
    assert.ok(!/eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(events.text), 'no JWT anywhere in the events');
    assert.ok(!/v1\.[\w-]+\.[\w-]{43}/.test(events.text), 'no link token anywhere in the events');
  });
});

describe('the hosted page and its API', () => {
  test('before the decision the API serves only what the page shows: no tax id, birth date, address, wallets or metadata', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    const full = (await api.get(`/v2/customers/${id}`)).body;
    const link = tokenOf(full.verification.link);
    const me = await hosted(link).get('/verify/api/customer');
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(Object.keys(me.body).sort(), ['id', 'name', 'requirements', 'type', 'verification']);
    assert.deepEqual(me.body.verification, { status: 'NOT_STARTED', level: 'STANDARD' });
    for (const secretValue of [full.taxId, full.birthDate, full.additionalInformation.address.line1]) assert.ok(!me.text.includes(secretValue), secretValue);
    const docs = await hosted(link).get('/verify/api/customer/documents');
    assert.equal(docs.status, 200);
    assert.equal(docs.body.data.length, 3);
    for (const d of docs.body.data) for (const hidden of ['sha256', 'size', 'contentType', 'country']) assert.ok(!(hidden in d), hidden);
  });

  test('after APPROVED the link shows the outcome alone: no name, no documents, nothing to upload', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    const link = await linkOf(api, id);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    assert.equal((await api.post(`/v2/sandbox/customers/${id}/review`, { outcome: 'APPROVED' })).status, 200);
    const full = (await api.get(`/v2/customers/${id}`)).body;
    assert.equal(full.wallets.length, 4);

    const me = await hosted(link).get('/verify/api/customer');
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body, { id, type: 'INDIVIDUAL', verification: { status: 'APPROVED', level: 'STANDARD' }, requirements: [] });
    for (const value of [full.name, full.taxId, full.birthDate, full.wallets[0].address]) assert.ok(!me.text.includes(value), value);
    const docs = await hosted(link).get('/verify/api/customer/documents');
    assert.equal(docs.status, 409, docs.text);
    const form = new FormData();
    form.set('type', 'PASSPORT');
    form.set('file', new Blob([new Uint8Array(JPG)]), 'p.jpg');
    const upload = await server.app.request('/verify/api/customer/documents', { method: 'POST', headers: { authorization: `Bearer ${link}` }, body: form });
    assert.equal(upload.status, 409);
    const page = await server.app.request(`/verify/${link}`);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.ok(!html.includes(full.name), 'the page names no one once decided');
    assert.match(html, /APPROVED/);
  });

  test('after FINAL_REJECTION, likewise the outcome alone', async () => {
    const { api, apiKey } = await newPartner(server);
    const id = await readyIndividual(server, api, apiKey, 0);
    const link = await linkOf(api, id);
    await api.post(`/v2/sandbox/customers/${id}/liveness`);
    assert.equal((await api.post(`/v2/sandbox/customers/${id}/review`, { outcome: 'FINAL_REJECTION' })).status, 200);
    const me = await hosted(link).get('/verify/api/customer');
    assert.deepEqual(me.body, { id, type: 'INDIVIDUAL', verification: { status: 'FINAL_REJECTION', level: 'STANDARD' }, requirements: [] });
  });

  test('the page has a strict Content-Security-Policy, its one inline style allowed by a per-response nonce', async () => {
    const { api } = await newPartner(server);
    const { body: c } = await api.post('/v2/customers', individual());
    const res = await server.app.request(new URL(c.verification.link).pathname);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('img-src'), ["'self'", 'data:', 'blob:']);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(directives.get('base-uri'), ["'none'"]);
    assert.deepEqual(directives.get('form-action'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    const style = directives.get('style-src') ?? [];
    assert.ok(!style.includes("'unsafe-inline'"), csp);
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(style.find((s) => s.startsWith("'nonce-")) ?? '')?.[1];
    assert.ok(nonce, csp);
    const html = await res.text();
    assert.ok(html.includes(`<style nonce="${nonce}">`), 'the inline style carries the nonce');
    assert.ok([...html.matchAll(/<script\b[^>]*>/g)].every((m) => /\ssrc="\/sdk\//.test(m[0])), 'no inline script');
    const again = await server.app.request(new URL(c.verification.link).pathname);
    assert.notEqual(again.headers.get('content-security-policy'), csp, 'a fresh nonce per response');
    const invalid = await server.app.request('/verify/not-a-link');
    assert.match(invalid.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  });
});
