// The browser library's import rules: no zod at runtime (the contract schemas are type-only there), nothing from server/, no Node built-ins.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Value imports (and re-exports) of a file: `import type` and `export type` are erased and do not count. */
function valueImports(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(?!type\b)([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const clause = m[2]!;
    // `import { type A, type B } from` imports nothing at runtime either.
    const names = /^\{([^}]*)\}$/.exec(clause.trim());
    if (names && names[1]!.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    out.push(m[3]!);
  }
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

const zodFree = new Map<string, boolean>();
/** A module is safe for the browser when neither it nor anything it imports by value pulls zod in. */
function pullsZod(file: string, seen = new Set<string>()): boolean {
  if (zodFree.has(file)) return !zodFree.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  const imports = valueImports(readFileSync(file, 'utf8'));
  const bad = imports.some((spec) => {
    if (spec === 'zod' || spec.startsWith('zod/') || spec === '@hono/zod-openapi') return true;
    if (!spec.startsWith('.')) return false;
    const target = resolve(dirname(file), spec.replace(/\.js$/, '')) + '.ts';
    try {
      return pullsZod(target, seen);
    } catch {
      return false;
    }
  });
  zodFree.set(file, !bad);
  return bad;
}

test('browser code never imports zod at runtime, directly or through a contract module', () => {
  const offenders = [...files(join(root, 'src')), ...files(join(root, 'demo'))]
    .filter((f) => !f.includes(`${join('src', 'contract')}`))
    .filter((f) => pullsZod(f))
    .map((f) => relative(root, f));
  assert.deepEqual(offenders, []);
});

test('browser code imports nothing from server/ and no Node built-ins', () => {
  const offenders: string[] = [];
  for (const f of [...files(join(root, 'src')), ...files(join(root, 'demo'))]) {
    for (const spec of valueImports(readFileSync(f, 'utf8'))) {
      if (spec.startsWith('node:') || /(^|\/)server\//.test(spec)) offenders.push(`${relative(root, f)} → ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});
