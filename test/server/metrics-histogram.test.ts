// The request histogram answers scrapes exactly as prom-client's own Histogram would for the same observations: the text
// (Prometheus and OpenMetrics), the JSON a cluster worker sends, and the supervisor's sum over workers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AggregatorRegistry, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { RequestHistogram } from '../../server/request-histogram';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const config = { name: 'http_server_request_duration_seconds', help: 'Time until the answer, by "route" \\ template.', buckets: BUCKETS };

/** Both histograms, each in a registry of its own, fed the same observations. */
function pair(contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE) {
  const theirs = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  theirs.setContentType(contentType);
  ours.setContentType(contentType);
  const reference = new Histogram({ ...config, labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const, registers: [theirs] });
  const histogram = new RequestHistogram({ ...config, registers: [ours] });
  const observe = (method: string, route: string, status: number, seconds: number) => {
    reference.observe({ http_request_method: method, http_route: route, http_response_status_code: status }, seconds);
    histogram.observe(method, route, status, seconds);
  };
  return { theirs, ours, observe, histogram, reference };
}

const ROUTES = ['/healthz', '/v2/customers/:id', '/v2/exchange-rates', 'unknown', '/bff/"quoted"\\path'];
const METHODS = ['GET', 'POST', '_OTHER'];
const STATUSES = [200, 201, 401, 404, 429, 500];

/** Observations over every bucket, on and between the bounds and past the largest, from a fixed seed. */
function feed(observe: (method: string, route: string, status: number, seconds: number) => void, seed: number, n = 3000) {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    const r = next();
    const seconds = r < 0.1 ? BUCKETS[Math.floor(next() * BUCKETS.length)]! : r < 0.15 ? 10 + next() * 20 : r < 0.2 ? 0 : next() ** 4 * 12;
    observe(METHODS[Math.floor(next() * METHODS.length)]!, ROUTES[Math.floor(next() * ROUTES.length)]!, STATUSES[Math.floor(next() * STATUSES.length)]!, seconds);
  }
}

describe('the request histogram, against prom-client’s Histogram', () => {
  test('the same text when nothing was observed, and after observations', async () => {
    const p = pair();
    assert.equal(await p.ours.metrics(), await p.theirs.metrics());
    feed(p.observe, 7);
    const text = await p.ours.metrics();
    assert.equal(text, await p.theirs.metrics());
    assert.match(text, /http_server_request_duration_seconds_bucket\{le="\+Inf",http_request_method="GET",http_route="\/healthz",http_response_status_code="200"\} \d+/);
  });

  test('the same OpenMetrics text', async () => {
    const p = pair(Registry.OPENMETRICS_CONTENT_TYPE);
    feed(p.observe, 11);
    assert.equal(await p.ours.metrics(), await p.theirs.metrics());
  });

  test('the same JSON for the supervisor, and the same sum over workers', async () => {
    const a = pair();
    const b = pair();
    feed(a.observe, 3);
    feed(b.observe, 5, 500);
    const json = async (r: Registry<RegistryContentType>) => JSON.parse(JSON.stringify(await r.getMetricsAsJSON()));
    assert.deepEqual(await json(a.ours), await json(a.theirs));
    const merged = (x: Registry<RegistryContentType>, y: Registry<RegistryContentType>) => Promise.all([x.getMetricsAsJSON(), y.getMetricsAsJSON()]).then((all) => AggregatorRegistry.aggregate(all).metrics());
    assert.equal(await merged(a.ours, b.ours), await merged(a.theirs, b.theirs));
  });

  test('reset forgets every series, as the registry’s resetMetrics does', async () => {
    const p = pair();
    feed(p.observe, 13, 100);
    p.ours.resetMetrics();
    p.theirs.resetMetrics();
    assert.equal(await p.ours.metrics(), await p.theirs.metrics());
    feed(p.observe, 17, 100);
    assert.equal(await p.ours.metrics(), await p.theirs.metrics());
  });
});
