// /verify/{token}: the hosted verification page that `verification.link` opens; the token names one customer and nothing else.
import { Hono } from 'hono';
import { html } from 'hono/html';
import { getCustomer } from '../store/queries/customers';
import { presentCustomer } from './presenters';
import type { Deps } from './deps';

export function verifyPageApp(deps: Deps) {
  return new Hono().get('/verify/:token', async (c) => {
    const link = await deps.tokens.verifyVerificationLink(c.req.param('token'));
    const row = link && (await getCustomer(deps.store.db, link.partnerId, link.customerId));
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    if (!row) return c.html(shell('Link not valid', html`<p>This verification link is not valid. Ask the service you came from for a new one.</p>`), 404);
    const customer = await presentCustomer(deps.store.db, deps, row);
    const name = customer.name ?? customer.legalName ?? '';
    return c.html(
      shell(
        'Identity verification',
        html`<p>Verification for <strong>${name}</strong>: <strong data-testid="verification-status">${customer.verification.status}</strong></p>
          <h2>What is still required</h2>
          <ul>
            ${customer.requirements.map((r) => html`<li>${r.name.replaceAll('_', ' ').toLowerCase()}: <strong>${r.status}</strong></li>`)}
          </ul>`,
      ),
    );
  });
}

const shell = (title: string, body: unknown) => html`<!doctype html>
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${title} · Ramp</title>
      <style>
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
        @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }
      </style>
    </head>
    <body>
      <main>
        <h1>${title}</h1>
        ${body}
      </main>
    </body>
  </html>`;
