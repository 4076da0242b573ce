// Issue 34, the files an SRE starts from: ops/prometheus-rules.yml parses as a Prometheus rule file (yaml), has an alert
// for each condition the issue names, and every expression there and in ops/grafana-dashboard.json names only series the
// service registers (createMetrics with a PostgreSQL pool and a configured chain, so every optional series is there).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import type { Chains } from '../../server/flows/chain/chains';
import { createLogger } from '../../server/logger';
import { createMetrics } from '../../server/metrics';
import type { Store } from '../../server/store/db';

const root = new URL('../..', import.meta.url).pathname;

/** Every series name the service can export: each metric's name, and a histogram's _bucket, _count and _sum. */
function exportedSeries(): Set<string> {
  const store = { kind: 'postgres', db: { $client: { totalCount: 1, idleCount: 1, waitingCount: 0 } } } as unknown as Store;
  const chains = { names: () => ['BASE'], list: () => [] } as unknown as Chains;
  const metrics = createMetrics({ store, chains, logger: createLogger('silent') });
  const names = new Set<string>();
  for (const m of metrics.registry.getMetricsAsArray()) {
    const { name, type } = m as unknown as { name: string; type: string };
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix);
  }
  return names;
}

const series = exportedSeries();
/** The series an expression names: identifiers of the service's families (PromQL functions and labels are not). */
const named = (expr: string) => [...expr.matchAll(/\b((?:http_server|ramp|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

interface Rule {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

test('the alert rules parse, cover each condition, and name only exported series', () => {
  const doc = parse(readFileSync(`${root}ops/prometheus-rules.yml`, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  assert.ok(Array.isArray(doc.groups) && doc.groups.length > 0, 'groups');
  const rules = doc.groups.flatMap((g) => {
    assert.equal(typeof g.name, 'string');
    assert.ok(Array.isArray(g.rules) && g.rules.length > 0, `rules of ${g.name}`);
    return g.rules;
  });
  for (const r of rules) {
    assert.match(r.alert ?? '', /^[A-Z][A-Za-z0-9]+$/, JSON.stringify(r));
    assert.equal(typeof r.expr, 'string', `${r.alert}: expr`);
    assert.match(r.for ?? '', /^\d+[smh]$/, `${r.alert}: for`);
    assert.ok(r.annotations?.summary, `${r.alert}: a summary`);
    const names = named(r.expr!);
    assert.ok(names.length > 0, `${r.alert} names a series`);
    for (const n of names) assert.ok(series.has(n), `${r.alert}: ${n} is not a series the service exports`);
    // Brackets and parentheses balance (a cheap stand-in for promtool's parse).
    for (const [open, close] of ['()', '[]', '{}']) assert.equal(r.expr!.split(open!).length, r.expr!.split(close!).length, `${r.alert}: ${open}${close} balance`);
  }
  const alerts = new Set(rules.map((r) => r.alert));
  for (const wanted of ['RampHigh5xxRate', 'RampP99LatencyHigh', 'RampWebhookQueueGrowing', 'RampJobsOverdue', 'RampDbPoolWaiting', 'RampChainBehind', 'RampChainWatcherBehind', 'RampPspUnreachable', 'RampPspFailing']) {
    assert.ok(alerts.has(wanted), `an alert ${wanted}`);
  }
});

test('every panel of the Grafana dashboard queries exported series', () => {
  const dash = JSON.parse(readFileSync(`${root}ops/grafana-dashboard.json`, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
  assert.ok(dash.panels.length >= 8);
  for (const p of dash.panels) {
    assert.ok(p.targets.length > 0, p.title);
    for (const t of p.targets) {
      const names = named(t.expr);
      assert.ok(names.length > 0, `${p.title}: ${t.expr}`);
      for (const n of names) assert.ok(series.has(n), `${p.title}: ${n} is not a series the service exports`);
    }
  }
});

test('the README has an "Operating Ramp" section that names the metrics and tracing settings, the files in ops/ and docs/operating.md', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const section = /^## Operating Ramp\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  assert.ok(section, 'README.md has a section "## Operating Ramp"');
  for (const name of ['RAMP_METRICS_PORT', 'RAMP_METRICS_HOST', 'http_server_request_duration_seconds', 'OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'trace_id', 'ops/', 'docs/operating.md']) {
    assert.ok(section.includes(name), `the section names ${name}`);
  }
  assert.ok(series.has('http_server_request_duration_seconds'), 'the series it names is the one exported');
});
