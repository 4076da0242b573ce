// The HTTP server's duration histogram (by method, route template and status), counted in plain numbers per series on
// the request path and read into prom-client's values when scraped: prom-client's own `observe` builds and looks up a
// string of the labels on every call, which is most of what a cheap request would pay for being measured.
import type { Metric, Registry, RegistryContentType } from 'prom-client';

export type HttpLabel = 'http_request_method' | 'http_route' | 'http_response_status_code';

interface Series {
  labels: Record<HttpLabel, string | number>;
  /** Observations per bucket, not cumulative; the last one holds those above the largest bound. */
  counts: number[];
  sum: number;
  count: number;
}

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
  exemplar?: null;
}

/**
 * A Prometheus histogram that prom-client's registries serve and aggregate like one of their own (the object shape
 * `Histogram.get()` answers, which is also how `AggregatorRegistry` registers the metrics it merges): the same series,
 * in the order they were first observed, the same buckets (an observation counts in the first bound it does not exceed),
 * sums added in the same order.
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly buckets: readonly number[];
  /** method → route → status: lookups with the strings hono hands over, no key is built per request. */
  private byMethod = new Map<string, Map<string, Map<number, Series>>>();
  private order: Series[] = [];

  constructor(config: { name: string; help: string; buckets: readonly number[]; registers: Registry<RegistryContentType>[] }) {
    this.name = config.name;
    this.help = config.help;
    this.buckets = [...config.buckets];
    for (const r of config.registers) r.registerMetric(this as unknown as Metric);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.byMethod.get(method);
    if (!byRoute) this.byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      s = { labels: { http_request_method: method, http_route: route, http_response_status_code: status }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      byStatus.set(status, s);
      this.order.push(s);
    }
    const b = this.buckets;
    let i = 0;
    while (i < b.length && seconds > b[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  /** The values as prom-client's `Histogram.get()` lists them: per series each bucket (cumulative), `+Inf`, sum, count. */
  async get() {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.order) {
      let acc = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        acc += s.counts[i]!;
        values.push({ labels: { le: this.buckets[i]!, ...s.labels }, value: acc, metricName: bucket, exemplar: null });
      }
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: bucket, exemplar: null });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.byMethod = new Map();
    this.order = [];
  }
}
