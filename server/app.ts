// The whole HTTP surface, assembled in one place: /v2 (API key), /bff (widget sessions), pages, docs, health.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bffApp } from './bff/routes';
import { Upstream, UpstreamProblem } from './bff/upstream';
import { bearerAuth } from './http/auth';
import { additionalInformationApp } from './http/additional-information';
import { associatedPartiesApp } from './http/associated-parties';
import { customersApp } from './http/customers';
import { bankAccountsApp } from './http/bank-accounts';
import { documentsApp } from './http/documents';
import { transactionsApp } from './http/transactions';
import { eventsApp } from './http/events';
import { exchangeRatesApp } from './http/exchange-rates';
import { partnerFeesApp } from './http/partner-fees';
import { transactionLimitsApp } from './http/transaction-limits';
import type { Deps } from './http/deps';
import { docsApp } from './http/docs';
import type { AppEnv } from './http/env';
import { healthApp } from './http/health';
import { hostedVerificationApp } from './http/hosted-verification';
import { idempotency } from './http/idempotency';
import { jsonBodyLimit, jsonOnly } from './http/json-body';
import { openApiApp } from './http/openapi-app';
import { notFoundHandler, onError } from './http/problem';
import { requestContext } from './http/request-context';
import { sandboxApp } from './http/sandbox';
import { staticApp } from './http/static';
import { verificationsApp } from './http/verifications';
import { widgetSessionsApp } from './http/widget-sessions';
import { demoSessionApp } from './sandbox/demo-session';

export const API_VERSION = '2.4.0';

export interface AppDeps extends Deps {
  /** The partner that `apiKey` belongs to (known when this instance owns the database). */
  partnerId?: string;
}

export function createApp(deps: AppDeps) {
  const { config, store, clock, logger } = deps;
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', requestContext(logger));
  app.onError((err, c) => {
    if (err instanceof UpstreamProblem) {
      return c.newResponse(JSON.stringify({ ...err.body, requestId: c.get('requestId') }), err.status as 400, {
        'content-type': 'application/problem+json',
      });
    }
    return onError(err, c);
  });
  app.notFound(notFoundHandler);

  const v2 = openApiApp();
  const uploads = /^\/v2\/customers\/[^/]+\/documents$/;
  v2.use('*', bearerAuth(store.db), jsonBodyLimit({ except: uploads }), jsonOnly({ multipartPaths: uploads }), idempotency({ db: store.db, clock }));
  v2.route('/', customersApp(deps));
  v2.route('/', additionalInformationApp(deps));
  v2.route('/', documentsApp(deps));
  v2.route('/', associatedPartiesApp(deps));
  v2.route('/', verificationsApp(deps));
  v2.route('/', transactionLimitsApp(deps));
  v2.route('/', exchangeRatesApp(deps));
  v2.route('/', partnerFeesApp(deps));
  v2.route('/', bankAccountsApp(deps));
  v2.route('/', transactionsApp(deps));
  v2.route('/', eventsApp(deps));
  v2.route('/', widgetSessionsApp(deps));
  if (config.sandbox) v2.route('/', sandboxApp(deps));
  app.route('/v2', v2);

  const upstream = new Upstream({ apiKey: deps.apiKey, upstreamUrl: config.RAMP_UPSTREAM_URL, inProcess: (req) => app.fetch(req) });
  const bff = bffApp({ upstream, tokens: deps.tokens, publicUrl: config.publicUrl, sandbox: config.sandbox, partnerId: config.RAMP_UPSTREAM_URL ? undefined : deps.partnerId });
  const bffUploads = /^\/bff\/customer\/documents$/;
  app.use('/bff/*', jsonBodyLimit({ except: bffUploads }), jsonOnly({ multipartPaths: bffUploads }));
  app.route('/bff', bff);
  if (config.sandbox) app.route('/', demoSessionApp(upstream));

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Your secret API key, `sk_sandbox_…` or `sk_live_…`. Server to server only: never ship it to a browser.',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Ramp API',
      version: API_VERSION,
      description:
        'Fiat ⇄ stablecoin on/off-ramp. Errors are RFC 9457 `application/problem+json` with a stable `code` and `errors[{path, message}]`. Lists are newest first with `size` (1–100, default 25) and opaque cursors. Every POST and PATCH accepts an `Idempotency-Key` (kept 24 h; a replay carries `Idempotency-Replayed: true`).',
    },
    servers: [{ url: config.publicUrl }],
    security: [{ ApiKey: [] }],
  });

  app.route('/', healthApp(store));
  app.route('/', docsApp());
  app.route('/', hostedVerificationApp(deps));
  app.route('/', staticApp());
  return app;
}

export type App = ReturnType<typeof createApp>;
