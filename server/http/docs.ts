// /docs: the API reference (Swagger UI served from our own origin, no CDN) over /openapi.json.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { compress } from 'hono/compress';

const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Ramp API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body{margin:0} .topbar{display:none}</style>
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/start.js"></script>
</body>
</html>`;

/** Our own start script, served as a file so that the page's policy allows no inline script at all. */
const start = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false });\n";

/**
 * The reference page runs only its own scripts, talks only to this origin and is never framed (its Authorize dialog takes
 * an API key). Swagger UI sets inline styles and draws data: images, hence those two allowances.
 */
export const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function docsApp() {
  return new Hono()
    .use('/docs/*', async (c, next) => {
      await next();
      c.res.headers.set('content-security-policy', DOCS_POLICY);
      c.res.headers.set('x-frame-options', 'DENY');
    })
    .use('/docs/assets/*', compress())
    .get('/docs', (c) => c.html(page))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      // Under the same route as Swagger UI's files: a static path beside a parameter would cost the app its RegExpRouter.
      if (file === 'start.js') return c.body(start, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
      const type = assets[file];
      if (!type) return c.notFound();
      const body = await readFile(join(swaggerDir, file));
      return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
    });
}
