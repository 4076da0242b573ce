// The hosted verification page (`verification.link` → /verify/{token}) and its API under /verify/api, where the link's token is the only credential and names one customer.
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { html } from 'hono/html';
import { AppError, notFound } from '../domain/errors';
import { isDecided } from '../domain/verification';
import { assertCanReceive, completeLiveness, customerDocuments, documentUpload, recordDocument, selfieUpload } from '../flows/documents';
import { customerIfAny } from '../flows/customers';
import type { Deps } from '../deps';
import type { AppEnv } from './env';
import { jsonBodyLimit } from './json-body';
import { withUpload } from './multipart';
import { partnerTime } from './partner-time';
import { notFoundHandler, onError } from './problem';
import { presentHostedCustomer, presentHostedDocument } from '../presenters';

interface HostedEnv {
  Variables: AppEnv['Variables'] & { link: { partnerId: string; customerId: string } };
}

/** `?lang=` (the widget that opened the page passes its own), else the browser's Accept-Language. */
const pageLang = (c: Context): 'pt-BR' | 'es' | 'en' => {
  const wanted = c.req.query('lang') ?? c.req.header('accept-language') ?? '';
  return /^pt\b/i.test(wanted) ? 'pt-BR' : /^es\b/i.test(wanted) ? 'es' : 'en';
};
const pageTitle = { 'pt-BR': 'Verificação de identidade', es: 'Verificación de identidad', en: 'Identity verification' } as const;

/** What the enclosing app hands the hosted app with each request (`fetch(request, env)`), beside the server's own bindings. */
export interface HostedBindings {
  requestId: string;
  logger: AppEnv['Variables']['logger'];
}

/**
 * The hosted page and its API, an app of their own: the enclosing app reaches it through one route, `/verify/*`
 * (`fetch(c.req.raw, { ...c.env, requestId, logger })`). `/verify/{token}` beside `/verify/api/…` is a shape hono's
 * RegExpRouter cannot hold, and inside the enclosing app it would send every route to the slower TrieRouter.
 * `pageLimits` run before the page, `apiLimits` before every API request.
 */
export function hostedVerificationApp(
  deps: Deps,
  opts: { limitLink?: (customerId: string) => Promise<void>; pageLimits?: MiddlewareHandler[]; apiLimits?: MiddlewareHandler[] } = {},
) {
  const { db } = deps.store;
  const app = new Hono<HostedEnv & { Bindings: HostedBindings }>();
  app.onError((err, c) => onError(err, c as unknown as Context<AppEnv>));
  const noRoute = notFoundHandler(() => app.routes);
  app.notFound((c) => noRoute(c as unknown as Context<AppEnv>));
  app.use('*', (c, next) => {
    c.set('requestId', c.env.requestId);
    c.set('logger', c.env.logger);
    return next();
  });

  for (const limit of opts.pageLimits ?? []) app.use('/verify/:token', limit);
  app.get('/verify/:token', async (c) => {
    const token = c.req.param('token');
    const link = await deps.tokens.verifyVerificationLink(token);
    const row = link && (await customerIfAny(db, link.partnerId, link.customerId));
    // A valid link's page loads spend its own budget (as its API calls do), never its visitor's address's.
    if (row) await opts.limitLink?.(link.customerId);
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    // Never framed: the liveness check must run top level (or in a popup), as the spec's hosted flow requires.
    c.header('x-frame-options', 'DENY');
    const nonce = randomBytes(16).toString('base64');
    c.header('content-security-policy', hostedPagePolicy(nonce));
    const lang = pageLang(c);
    if (!row) return c.html(shell(lang, nonce, 'Link not valid', html`<h1>Link not valid</h1><p>This verification link is not valid or has expired. Ask the service you came from for a new one.</p>`), 404);
    // Once decided, the page shows the outcome alone: no name, nothing else about the person.
    const name = isDecided(row.verificationStatus) ? '' : (row.name ?? row.legalName ?? '');
    return c.html(
      shell(
        lang,
        nonce,
        pageTitle[lang],
        html`<ramp-verification api-base="/verify/api" session="${token}" lang="${lang}" ${deps.config.sandbox ? 'sandbox' : ''}></ramp-verification>
          <noscript>
            <h1>${pageTitle[lang]}</h1>
            <p>${name ? html`Verification for <strong>${name}</strong>: ` : 'Verification: '}<strong data-testid="verification-status">${row.verificationStatus}</strong>. This page needs JavaScript for the liveness check.</p>
          </noscript>`,
      ),
    );
  });

  const api = new Hono<HostedEnv>();
  for (const limit of opts.apiLimits ?? []) api.use('*', limit);
  // <ramp-verification> embedded on a partner's page calls this API from that origin. The link token in the
  // Authorization header is the only credential (no cookies), so any origin may send it.
  api.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'PATCH'], allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'accept'], exposeHeaders: ['x-request-id', 'retry-after'], maxAge: 600 }));
  api.use('*', async (c, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const link = m ? await deps.tokens.verifyVerificationLink(m[1]!) : undefined;
    if (!link) throw new AppError('UNAUTHENTICATED', 'This verification link is not valid or has expired. Ask the service you came from for a new one.');
    await opts.limitLink?.(link.customerId);
    c.set('link', link);
    c.set('partnerId', link.partnerId);
    await next();
  });
  api.use('*', partnerTime(deps));
  api.use('*', jsonBodyLimit({ except: /\/(documents|liveness)$/ }));

  const customerOf = async (c: Context<HostedEnv>) => {
    const { partnerId, customerId } = c.get('link');
    const row = await customerIfAny(db, partnerId, customerId);
    if (!row) throw notFound('Customer');
    return row;
  };

  /** After a final decision a link shows the outcome only: nothing else is read or written through it. */
  const undecidedCustomerOf = async (c: Context<HostedEnv>) => {
    const row = await customerOf(c);
    if (isDecided(row.verificationStatus)) {
      throw new AppError('INVALID_STATE', `This verification is decided (${row.verificationStatus}); the link shows its outcome only.`, {
        extra: { verificationStatus: row.verificationStatus },
      });
    }
    return row;
  };

  api.get('/customer', async (c) => c.json(await presentHostedCustomer(db, deps, await customerOf(c))));

  api.get('/customer/documents', async (c) => {
    const row = await undecidedCustomerOf(c);
    return c.json({ data: (await customerDocuments(db, row)).map(presentHostedDocument) });
  });

  api.post('/customer/documents', async (c) => {
    const row = await undecidedCustomerOf(c);
    await assertCanReceive(db, deps.config, row);
    const doc = await withUpload(c.req.raw, deps.files, documentUpload, (received) => recordDocument(db, deps, row.partnerId, row.id, received, { allowSelfie: false }));
    return c.json(presentHostedDocument(doc), 201);
  });

  // The selfie: kept as a SELFIE document, then liveness completes (and an individual's review starts if all else is in).
  api.post('/customer/liveness', async (c) => {
    const row = await undecidedCustomerOf(c);
    await assertCanReceive(db, deps.config, row, { selfie: true });
    await withUpload(c.req.raw, deps.files, selfieUpload, (received) =>
      recordDocument(db, deps, row.partnerId, row.id, { ...received, fields: { type: 'SELFIE' } }, { allowSelfie: true }),
    );
    const updated = await completeLiveness(db, deps, row.partnerId, row.id);
    return c.json(await presentHostedCustomer(db, deps, updated));
  });

  if (deps.config.sandbox) {
    api.post('/customer/liveness/simulate', async (c) => {
      const row = await undecidedCustomerOf(c);
      const updated = await completeLiveness(db, deps, row.partnerId, row.id);
      return c.json(await presentHostedCustomer(db, deps, updated));
    });
  }

  app.route('/verify/api', api);
  return app;
}

/**
 * The page's Content-Security-Policy: only our own script bundle and API, the page's one inline style by nonce (Lit's
 * component styles are constructed stylesheets, which CSP does not block), the selfie preview as a blob: image, and
 * nothing may frame it, change its base URL, embed plugins or post forms elsewhere.
 */
export function hostedPagePolicy(styleNonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

const shell = (lang: string, nonce: string, title: string, body: unknown) => html`<!doctype html>
  <html lang="${lang}">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${title} · Ramp</title>
      <script type="module" src="/sdk/ramp-widget.js"></script>
      <style nonce="${nonce}">
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
        @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }
      </style>
    </head>
    <body>
      <main>${body}</main>
    </body>
  </html>`;
