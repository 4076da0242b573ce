// A partner's site on another origin for the e2e tests: pages under a strict CSP that load the SDK from the Ramp
// server, a login (a cookie naming the user), a backend that mints widget sessions for the signed-in user the README's
// way, `/flow.html`, a <ramp-widget> page that renews its session through its events, and `/account.html`, one that
// gets every session from `session-url`.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rampSession } from '../../docs/examples/ramp-session';
import type { RunningServer } from './support';

/** What a path answers: a script, or a page under the host's CSP. */
export type HostRoute = { js: string } | { html: string };

export interface Host {
  origin: string;
  /** A widget session from the partner's backend: an onboarding one, or one bound to `customerId`. */
  mintSession(customerId?: string): Promise<string>;
  /** What the backend's `/session` answers the signed-in `user` (docs/examples/ramp-session.ts). */
  sessionFor(user: string): Promise<string>;
  /** Opening it signs `user` in on the host (its own cookie), as a partner's login would. */
  loginUrl(user: string): string;
  /** Every token the backend's `/session` endpoint handed to a page, oldest first. */
  readonly renewedTokens: readonly string[];
  close(): Promise<void>;
}

/** The host's own script: records CSP violations and the Ramp events, and hands the session to the first <ramp-*> on the page. */
const hostScript = `
window.violations = [];
window.rampEvents = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
for (const type of ['ramp-customer-created', 'ramp-error', 'ramp-session-expired']) {
  document.addEventListener(type, (e) => rampEvents.push({ type, detail: e.detail, target: e.target.localName }));
}
`;

/**
 * The partner's renewal on `/flow.html`: on ramp-session-expired it asks its own backend for a token, which knows the
 * user from its login alone (the page names no customer), and hands it to the element.
 */
const flowScript = `
const q = new URLSearchParams(location.search);
const widget = document.querySelector('ramp-widget');
widget.session = q.get('session');
window.renewals = 0;
widget.addEventListener('ramp-session-expired', (e) => {
  renewals += 1;
  e.preventDefault();
  fetch('/session', { method: 'POST' })
    .then((r) => r.json())
    .then(({ token }) => (widget.session = token));
});
`;

/** Hands the page's `?session=` to its <ramp-widget>, as a partner page that got the token from its backend would. */
const widgetSessionScript = `document.querySelector('ramp-widget').session = new URLSearchParams(location.search).get('session');`;

export function hostPage(title: string, lang: string, scripts: string[], body: string): string {
  // A partner's page made for phones says so: without the viewport tag a phone lays it out 980 px wide.
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
${scripts.map((src) => `<script type="module" src="${src}"></script>`).join('\n')}
</head><body>${body}</body></html>`;
}

export const sdkUrl = (ramp: RunningServer) => `${ramp.url}/sdk/ramp-widget.js`;

/** The signed-in user: the host's own login cookie (a real site's is a signed session; this one is a test's). */
const signedInUser = (cookie: string | undefined): string | undefined => /(?:^|;\s*)user=([^;]+)/.exec(cookie ?? '')?.[1];

/** Starts the host on 127.0.0.1 with `/login`, `/host.js`, `/widget-session.js`, `/flow.html`, `/flow.js`, `/account.html`, `POST /session` and the test's own routes. */
export async function startHost(ramp: RunningServer, routes: Record<string, HostRoute> = {}): Promise<Host> {
  let origin = '';
  const renewedTokens: string[] = [];
  const mintSession = async (customerId?: string): Promise<string> => {
    const res = await fetch(`${ramp.url}/v2/widget-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowedOrigins: [origin], ...(customerId ? { customerId } : {}) }),
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as { token: string }).token;
  };
  const sessionFor = (user: string) => rampSession(user, { url: ramp.url, apiKey: ramp.apiKey, origin }).then((s) => s.token);
  const csp = `default-src 'self'; script-src 'self' ${ramp.url}; connect-src 'self' ${ramp.url}; style-src 'self'; img-src 'self' data:`;
  const all: Record<string, HostRoute> = {
    '/host.js': { js: hostScript },
    '/flow.js': { js: flowScript },
    '/widget-session.js': { js: widgetSessionScript },
    '/flow.html': { html: hostPage('flow', 'en', ['/host.js', sdkUrl(ramp), '/flow.js'], '<ramp-widget sandbox amount="500"></ramp-widget>') },
    '/account.html': { html: hostPage('account', 'en', ['/host.js', sdkUrl(ramp)], '<ramp-widget sandbox session-url="/session"></ramp-widget>') },
    ...routes,
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (path === '/login') {
      const user = encodeURIComponent(new URL(req.url ?? '/', 'http://host').searchParams.get('user') ?? '');
      return res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': `user=${user}; Path=/; HttpOnly; SameSite=Lax` }).end('signed in');
    }
    if (path === '/session' && req.method === 'POST') {
      // Whoever the login says; nothing the browser sends names the user or the customer.
      const user = signedInUser(req.headers.cookie);
      if (!user) return res.writeHead(401).end();
      const { token } = await rampSession(decodeURIComponent(user), { url: ramp.url, apiKey: ramp.apiKey, origin });
      renewedTokens.push(token);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
    }
    const route = all[path];
    if (!route) return res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
    if ('js' in route) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(route.js);
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp }).end(route.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    mintSession,
    sessionFor,
    loginUrl: (user) => `${origin}/login?user=${encodeURIComponent(user)}`,
    renewedTokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
