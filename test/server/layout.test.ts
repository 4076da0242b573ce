// The house's layout, checked: which server layer may import which (docs/layout.md), how long a source file may grow, the
// shared onboarding controls, and the README as a front door.
// The lists of known exceptions only shrink: a file that gets back in line must leave its list, and no new one may join.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, test } from 'node:test';

const root = normalize(join(import.meta.dirname, '../..'));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** The repository paths (without extension) a file imports, statically or dynamically; packages are left out. */
function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(root, join(root, dirname(file), s)).replace(/\.(ts|js|mjs)$/, '').replace(/\/index$/, ''));
}

/** The layer a server path belongs to: its first folder under server/, or the file itself for top-level modules. */
const layer = (path: string) => (path.startsWith('server/') ? path.split('/')[1]!.replace(/\.ts$/, '') : path.split('/')[0]!);

/** What each layer must never import. `src/contract` and `src/rules` are the pure rules the browser shares, open to all. */
const FORBIDDEN: Record<string, (target: string) => boolean> = {
  // The domain is plain rules: no HTTP, no SQL, no flows, no process.
  domain: (t) => t.startsWith('server/') && !t.startsWith('server/domain/'),
  store: (t) => ['http', 'bff', 'flows', 'workers', 'presenters', 'app', 'main'].includes(layer(t)),
  flows: (t) => ['http', 'bff', 'workers', 'app', 'main'].includes(layer(t)),
  presenters: (t) => ['http', 'bff', 'flows', 'workers', 'app', 'main'].includes(layer(t)),
  workers: (t) => ['http', 'bff', 'app', 'main'].includes(layer(t)),
  // The file store is a port (the outside world's disk or bucket), which the upload parser streams into.
  http: (t) => ['store', 'bff', 'workers'].includes(layer(t)) && t !== 'server/store/file-store',
  bff: (t) => ['store', 'workers'].includes(layer(t)),
};

/**
 * Imports that still run against the layering (issue 35 item 1 is moving routes behind flows). Each entry is
 * `file -> imported module`; the list may only shrink.
 */
const KNOWN_EXCEPTIONS = new Set(readFileSync(join(import.meta.dirname, 'layout-known-exceptions.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')));

/** Files over the size bound today, with the lines they may not grow past. */
const MAX_LINES = 400;
const KNOWN_LONG: Record<string, number> = {
};

/** A figure that came from a measurement (a share of CPU or of a read, microseconds, a bench ratio) or an issue number. */
const MEASUREMENT = /\bissues? #?\d+|\bA\/B\b|\d\s?µs\b|% of (a|an|the|its) [\w' ]*\b(CPU|read|quote|request)s?\b|\d×\s+(of|against)\b|throttled CPU/i;

describe('the layout', () => {
  const files = sources('server');

  test('every server layer imports only the layers below it', () => {
    const wrong: string[] = [];
    const known: string[] = [];
    for (const file of files) {
      const rule = FORBIDDEN[layer(file)];
      if (!rule) continue;
      for (const target of imports(file)) {
        if (!rule(target)) continue;
        const line = `${file} -> ${target}`;
        if (KNOWN_EXCEPTIONS.has(line)) known.push(line);
        else wrong.push(line);
      }
    }
    assert.deepEqual(wrong, [], 'imports that run against the layering');
    const stale = [...KNOWN_EXCEPTIONS].filter((l) => !known.includes(l));
    assert.deepEqual(stale, [], 'known exceptions that are gone: take them off layout-known-exceptions.txt');
  });

  test(`no source file in server/ or src/ grows past ${MAX_LINES} lines (known long files may only shrink)`, () => {
    const over: string[] = [];
    for (const file of [...files, ...sources('src')]) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n').length - 1;
      const bound = KNOWN_LONG[file] ?? MAX_LINES;
      if (lines > bound) over.push(`${file}: ${lines} lines (bound ${bound})`);
    }
    assert.deepEqual(over, []);
  });

  test('code comments keep the why, not figures or issue numbers (those live in docs/)', () => {
    const found: string[] = [];
    for (const file of [...files, ...sources('src'), ...sources('scripts')]) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const comment = /^\s*(\/\/|\/\*|\*)(.*)$/.exec(line)?.[2] ?? /\s\/\/\s(.*)$/.exec(line)?.[1];
          if (comment && MEASUREMENT.test(comment)) found.push(`${file}:${i + 1}: ${comment.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });

  test('the comment check sees a measurement and an issue number', () => {
    for (const c of ['was 2–3 % of a read\'s CPU', 'took ~25 µs of its 80', 'issue 14 holds it', 'in an interleaved A/B', '~70 ms of a 4× throttled CPU']) assert.ok(MEASUREMENT.test(c), c);
    for (const c of ['at most 50 MB', 'a 15 % holder is refused', 'retries after 150 ms']) assert.ok(!MEASUREMENT.test(c), c);
  });

  test('transactions open through inTransaction (a store database or a savepoint, passed explicitly), never drizzle\'s own', () => {
    const direct = /\.transaction\s*\(/;
    const found = files.filter((f) => f !== 'server/store/db.ts').filter((f) => readFileSync(join(root, f), 'utf8').split('\n').some((line) => direct.test(line) && !/^\s*(\/\/|\*)/.test(line)));
    assert.deepEqual(found, []);
    assert.equal(readFileSync(join(root, 'server/store/db.ts'), 'utf8').includes('AsyncLocalStorage'), false, 'no ambient transaction');
  });

  test('the onboarding forms share one address, person and tax-id control each (form-parts, address-fields)', () => {
    const dir = 'src/components/onboarding';
    const text = (name: string) => readFileSync(join(root, dir, name), 'utf8');
    for (const form of ['customer-form.ts', 'info-step.ts', 'parties-step.ts']) assert.ok(imports(`${dir}/${form}`).includes(`${dir}/form-parts`), `${form} uses form-parts`);
    for (const form of ['info-step.ts', 'parties-step.ts']) assert.ok(imports(`${dir}/${form}`).includes(`${dir}/address-fields`), `${form} uses address-fields`);
    // The inputs a form writes itself are the ones no other form has (the parties' type radio; the amounts and the phone).
    assert.equal(/<input/.test(text('customer-form.ts')), false, 'customer-form.ts writes no input of its own');
    assert.deepEqual([...text('parties-step.ts').matchAll(/<input[^>]*?type="?(\w+)/g)].map((m) => m[1]), ['radio'], 'parties-step.ts');
  });

  test('the README is a front door: at most 300 lines, linking each subject in docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 300, `README.md has ${readme.split('\n').length} lines`);
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
    assert.deepEqual(docs.filter((d) => !readme.includes(`](docs/${d}`)), [], 'docs not linked from the README');
  });

  test('no private internals of libraries: drizzle, pg-pool, ServerResponse, hono\'s request; the browser client is ky', () => {
    const internals = /\._prepare\b|joinsNotNullableMap|\._(clients|idle|pendingQueue|expired)\b|ServerResponse\.prototype|c\.req\.(json|raw)\s*=[^=]/;
    const found = files.filter((f) => readFileSync(join(root, f), 'utf8').split('\n').some((line) => internals.test(line) && !/^\s*(\/\/|\*)/.test(line)));
    assert.deepEqual(found, []);
    assert.match(readFileSync(join(root, 'src/client/http.ts'), 'utf8'), /from 'ky'/);
  });

  test('the checker sees a forbidden import (a route importing the store is caught)', () => {
    assert.equal(FORBIDDEN.http!('server/store/db'), true);
    assert.equal(FORBIDDEN.domain!('server/store/queries/customers'), true);
    assert.equal(FORBIDDEN.domain!('src/contract/currencies'), false);
    assert.equal(FORBIDDEN.flows!('server/deps'), false);
    assert.ok(imports('server/http/customers.ts').includes('server/deps'));
  });
});
