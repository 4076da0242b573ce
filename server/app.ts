// The whole HTTP surface, assembled in one place: /v2 (API key), /bff (widget sessions), pages, docs, health.
import { sessionUploadBudget } from './flows/session-uploads';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorHandler } from 'hono';
import { bffApp } from './bff/routes';
import { pspWebhooksApp } from './http/psp-webhooks';
import { parseOrigins, publicOnboardingApp } from './bff/public-onboarding';
import { widgetSessionAuth } from './bff/session';
import { InProcessUpstream, Upstream, UpstreamProblem } from './bff/upstream';
import { ApiKeyCache, bearerAuth } from './http/auth';
import { chain } from './http/chain';
import { additionalInformationApp } from './http/additional-information';
import { associatedPartiesApp } from './http/associated-parties';
import { customersApp } from './http/customers';
import { bankAccountsApp } from './http/bank-accounts';
import { documentsApp } from './http/documents';
import { transactionsApp } from './http/transactions';
import { eventsApp } from './http/events';
import { webhooksApp } from './http/webhooks';
import { registerEventWebhooks } from './http/webhook-docs';
import { exchangeRatesApp } from './http/exchange-rates';
import { partnerFeesApp } from './http/partner-fees';
import { partnerApp } from './http/partner';
import { transactionLimitsApp } from './http/transaction-limits';
import type { Deps } from './deps';
import { docsApp } from './http/docs';
import type { AppEnv } from './http/env';
import { healthApp } from './http/health';
import { hostedVerificationApp } from './http/hosted-verification';
import { idempotency } from './http/idempotency';
import { partnerTime } from './http/partner-time';
import { jsonBody } from './http/json-body';
import { httpMetrics } from './http/metrics';
import { traceRoute } from './http/tracing';
import { tracingOn } from './tracing';
import { openApiApp } from './http/openapi-app';
import { decorateDocument, serveDocument } from './http/openapi-doc';
import { IN_PROCESS, RateLimits } from './http/rate-limit';
import { notFoundHandler, onError } from './http/problem';
import { queryText } from './http/query-text';
import { requestContext } from './http/request-context';
import { sandboxApp } from './http/sandbox';
import { staticApp } from './http/static';
import { verificationsApp } from './http/verifications';
import { apiVersions } from './http/versions';
import { widgetSessionsApp } from './http/widget-sessions';
import { demoSandboxApp } from './sandbox/demo-sandbox';
import { demoSessionApp } from './sandbox/demo-session';
import { demoWebhooksApp } from './sandbox/demo-webhooks';

export const API_VERSION = '2.4.0';

export interface AppDeps extends Deps {
  /** The partner that `apiKey` belongs to (known when this instance owns the database). */
  partnerId?: string;
}

export function createApp(deps: AppDeps) {
  const { config, store, clock, logger } = deps;
  const app = new OpenAPIHono<AppEnv>();
  const limits = new RateLimits(config, store, logger, deps.metrics);
  const answerError: ErrorHandler<AppEnv> = (err, c) => {
    if (err instanceof UpstreamProblem) {
      return c.newResponse(JSON.stringify({ ...err.body, requestId: c.get('requestId') }), err.status as 400, {
        'content-type': 'application/problem+json',
      });
    }
    return onError(err, c);
  };
  app.onError(answerError);
  app.use('*', chain(answerError, ...(tracingOn() ? [traceRoute()] : []), requestContext(logger, { hsts: !config.sandbox, ...(deps.metrics && { onAnswer: httpMetrics(deps.metrics) }) }), queryText()));
  app.notFound(notFoundHandler(() => app.routes));

  const v2 = openApiApp();
  const uploads = /^\/v2\/customers\/[^/]+\/documents$/;
  const keys = new ApiKeyCache();
  // One layer of hono's stack (`chain`): each of these still answers its own errors, as a layer of its own would.
  v2.use('*', chain(answerError, apiVersions(), limits.authFailures(), bearerAuth(store.db, keys), partnerTime(deps), limits.perApiKey(), jsonBody({ uploads }), idempotency({ db: store.db, clock, answers: deps.tokens.idempotencyAnswers })));
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
  v2.route('/', webhooksApp(deps));
  v2.route('/', widgetSessionsApp(deps));
  v2.route('/', partnerApp(deps));
  if (config.sandbox) v2.route('/', sandboxApp(deps));
  app.route('/v2', v2);

  const upstreamOptions = { apiKey: deps.apiKey, upstreamUrl: config.RAMP_UPSTREAM_URL, inProcess: (req: Request) => app.fetch(req, { [IN_PROCESS]: true }) };
  // Beside the service, hot reads go straight to the flows; a pure BFF speaks HTTP to its upstream for everything.
  const upstream = config.RAMP_UPSTREAM_URL ? new Upstream(upstreamOptions) : new InProcessUpstream(upstreamOptions, { db: store.db, deps, keys });
  // In process the bootstrap partner is known; in front of an upstream, the upstream says whose key this BFF holds.
  const localPartner = config.RAMP_UPSTREAM_URL ? undefined : deps.partnerId;
  const ownPartnerId = async (requestId: string) => localPartner ?? upstream.partnerId({ requestId });
  const bff = bffApp({
    upstream,
    tokens: deps.tokens,
    publicUrl: config.publicUrl,
    sandbox: config.sandbox,
    ownPartnerId,
    limitSession: (sessionId) => limits.consume('session', sessionId, 'for this widget session'),
    uploads: sessionUploadBudget(deps),
    conflicts: {
      blockedFor: (sessionId) => limits.blockedFor('conflicts', sessionId),
      spend: (sessionId) => limits.consume('conflicts', sessionId, 'tax ids already registered, for this widget session', true),
    },
  });
  const bffUploads = /^\/bff\/customer\/documents$/;
  app.use('/bff/*', limits.authFailures());
  app.use('/bff/*', jsonBody({ uploads: bffUploads }));
  if (config.RAMP_PUBLIC_ONBOARDING) app.route('/bff', publicOnboardingApp(upstream, { origins: parseOrigins(config.RAMP_PUBLIC_ONBOARDING), limit: (c, origin) => limits.perAddress('publicSession', c, origin), tokens: deps.tokens }));
  app.route('/bff', bff);
  if (config.sandbox) app.route('/', demoSessionApp(upstream, { publicUrl: config.publicUrl, limit: limits.addressLimit('demoSession') }));
  // The built-in receiver needs the partner's endpoints, so it lives beside the service, not in front of an upstream.
  if (config.sandbox && !config.RAMP_UPSTREAM_URL) {
    app.route('/', demoWebhooksApp(deps, { publicUrl: config.publicUrl, auth: widgetSessionAuth({ tokens: deps.tokens, publicUrl: config.publicUrl, ownPartnerId }) }));
  }
  if (config.sandbox) {
    app.use('/demo/sandbox/*', limits.authFailures(), jsonBody({}));
    app.route('/', demoSandboxApp(upstream, { auth: widgetSessionAuth({ tokens: deps.tokens, publicUrl: config.publicUrl, ownPartnerId }) }));
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Your secret API key, `sk_sandbox_…` or `sk_live_…`. Server to server only: never ship it to a browser.',
  });
  registerEventWebhooks(app.openAPIRegistry);
  const documentConfig = {
    openapi: '3.1.0',
    info: {
      title: 'Ramp API',
      version: API_VERSION,
      description:
        'Fiat ⇄ stablecoin on/off-ramp. Errors are RFC 9457 `application/problem+json` with a stable `code` and `errors[{path, message}]`. Lists are newest first with `size` (1–100, default 25) and opaque cursors. Every POST and PATCH accepts an `Idempotency-Key` (kept 24 h; a replay carries `Idempotency-Replayed: true`).',
    },
    // Relative, so /docs "Try it out" works on whichever host name the server was reached by.
    servers: [{ url: '/', description: 'This server' }],
    security: [{ ApiKey: [] }],
  };
  // The latest document, or a pinned version's (`?version=2.1.0`), each built once.
  app.get('/openapi.json', serveDocument(() => decorateDocument(app.getOpenAPI31Document(documentConfig))));

  if (deps.pix) app.route('/', pspWebhooksApp({ ...deps, pix: deps.pix }));
  app.route('/', healthApp(store, { clock, chains: deps.chains, files: deps.files, ...(deps.pix ? { pix: deps.pix } : {}) }));
  app.route('/', docsApp());
  const hosted = hostedVerificationApp(deps, {
    limitLink: (customerId) => limits.consume('link', customerId, 'for this verification link'),
    // The hosted page: the link in its path is the credential, so a link that does not verify (404) is a refusal.
    pageLimits: [limits.authFailures({ failureStatuses: [404], presented: () => true })],
    apiLimits: [limits.authFailures()],
  });
  app.all('/verify/*', (c) => hosted.fetch(c.req.raw, { ...(c.env as object), requestId: c.get('requestId'), logger: c.get('logger') }));
  app.route('/', staticApp({ demo: config.sandbox }));
  return app;
}

export type App = ReturnType<typeof createApp>;
