// Completes packages/elements (the publishable browser package) after `vite build` and `tsc -p tsconfig.lib.json`
// wrote its dist/lib: the contract's declarations import `z` from @hono/zod-openapi, a server dependency, which
// re-exports zod's own `z`; the package's declarations import it from zod, a dependency of the package (types only:
// the browser code has no zod at runtime). The package also ships the custom-elements manifest.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = join(root, 'packages/elements');

for (const entry of readdirSync(join(pkg, 'dist/lib/types'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const source = readFileSync(file, 'utf8');
  const next = source.replaceAll(/(from\s+|import\()(['"])@hono\/zod-openapi\2/g, '$1$2zod$2');
  if (next !== source) writeFileSync(file, next);
}
copyFileSync(join(root, 'custom-elements.json'), join(pkg, 'custom-elements.json'));
