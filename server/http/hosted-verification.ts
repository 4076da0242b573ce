// The hosted verification page (`verification.link` → /verify/{token}) and its API under /verify/api, where the link's token is the only credential and names one customer.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { html } from 'hono/html';
import { AppError, notFound } from '../domain/errors';
import { assertCanUpload, completeLiveness, receiveMultipart, recordDocument } from '../flows/documents';
import { getCustomer } from '../store/queries/customers';
import { listDocuments } from '../store/queries/documents';
import type { Deps } from './deps';
import type { AppEnv } from './env';
import { jsonBodyLimit } from './json-body';
import { presentCustomer, presentDocument } from './presenters';

interface HostedEnv {
  Variables: AppEnv['Variables'] & { link: { partnerId: string; customerId: string } };
}

const pageLang = (c: Context) => (/^pt\b/i.test(c.req.header('accept-language') ?? '') ? 'pt-BR' : 'en');

export function hostedVerificationApp(deps: Deps) {
  const { db } = deps.store;
  const app = new Hono<HostedEnv>();

  app.get('/verify/:token', async (c) => {
    const token = c.req.param('token');
    const link = await deps.tokens.verifyVerificationLink(token);
    const row = link && (await getCustomer(db, link.partnerId, link.customerId));
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    // Never framed: the liveness check must run top level (or in a popup), as the spec's hosted flow requires.
    c.header('x-frame-options', 'DENY');
    c.header('content-security-policy', "frame-ancestors 'none'");
    const lang = pageLang(c);
    if (!row) return c.html(shell(lang, 'Link not valid', html`<h1>Link not valid</h1><p>This verification link is not valid. Ask the service you came from for a new one.</p>`), 404);
    const name = row.name ?? row.legalName ?? '';
    return c.html(
      shell(
        lang,
        lang === 'pt-BR' ? 'Verificação de identidade' : 'Identity verification',
        html`<ramp-verification api-base="/verify/api" session="${token}" lang="${lang}" ${deps.config.sandbox ? 'sandbox' : ''}></ramp-verification>
          <noscript>
            <h1>${lang === 'pt-BR' ? 'Verificação de identidade' : 'Identity verification'}</h1>
            <p>Verification for <strong>${name}</strong>: <strong data-testid="verification-status">${row.verificationStatus}</strong>. This page needs JavaScript for the liveness check.</p>
          </noscript>`,
      ),
    );
  });

  const api = new Hono<HostedEnv>();
  api.use('*', async (c, next) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const link = m ? await deps.tokens.verifyVerificationLink(m[1]!) : undefined;
    if (!link) throw new AppError('UNAUTHENTICATED', 'This verification link is not valid.');
    c.set('link', link);
    c.set('partnerId', link.partnerId);
    await next();
  });
  api.use('*', jsonBodyLimit({ except: /\/(documents|liveness)$/ }));

  const customerOf = async (c: Context<HostedEnv>) => {
    const { partnerId, customerId } = c.get('link');
    const row = await getCustomer(db, partnerId, customerId);
    if (!row) throw notFound('Customer');
    return row;
  };

  api.get('/customer', async (c) => c.json(await presentCustomer(db, deps, await customerOf(c))));

  api.get('/customer/documents', async (c) => {
    const row = await customerOf(c);
    return c.json({ data: (await listDocuments(db, row.partnerId, row.id)).map(presentDocument) });
  });

  api.post('/customer/documents', async (c) => {
    const row = await customerOf(c);
    assertCanUpload(row);
    const received = await receiveMultipart(c.req.raw, deps.files);
    return c.json(presentDocument(await recordDocument(db, deps, row.partnerId, row.id, received, { allowSelfie: false })), 201);
  });

  // The selfie: kept as a SELFIE document, then liveness completes (and an individual's review starts if all else is in).
  api.post('/customer/liveness', async (c) => {
    const row = await customerOf(c);
    assertCanUpload(row, { selfie: true });
    const received = await receiveMultipart(c.req.raw, deps.files);
    if (received.file && received.file.contentType === 'application/pdf') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The selfie must be a JPG or PNG photo.', { errors: [{ path: 'file', message: 'must be a JPG or PNG photo' }] });
    }
    await recordDocument(db, deps, row.partnerId, row.id, { ...received, fields: { type: 'SELFIE' } }, { allowSelfie: true });
    const updated = await completeLiveness(db, deps, row.partnerId, row.id);
    return c.json(await presentCustomer(db, deps, updated));
  });

  if (deps.config.sandbox) {
    api.post('/customer/liveness/simulate', async (c) => {
      const row = await customerOf(c);
      const updated = await completeLiveness(db, deps, row.partnerId, row.id);
      return c.json(await presentCustomer(db, deps, updated));
    });
  }

  app.route('/verify/api', api);
  return app;
}

const shell = (lang: string, title: string, body: unknown) => html`<!doctype html>
  <html lang="${lang}">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${title} · Ramp</title>
      <script type="module" src="/sdk/ramp-widget.js"></script>
      <style>
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
        @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }
      </style>
    </head>
    <body>
      <main>${body}</main>
    </body>
  </html>`;
