// The built browser assets: the script-tag bundle at /sdk (loadable cross-origin as a module) and the demo page at /.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

export function staticApp() {
  const app = new Hono();
  if (!existsSync(`${dist}sdk`)) {
    const missing = (c: { text: (t: string, s: 503) => Response }) => c.text('The browser bundle is not built: run `npm run build` (npm start does it for you).', 503);
    app.get('/sdk/*', missing);
    app.get('/', missing);
    return app;
  }
  // 370 kB of JavaScript travel as about 100 kB.
  app.use('/sdk/*', compress());
  app.use('/assets/*', compress());
  app.use('/sdk/*', async (c, next) => {
    await next();
    // Partners load the bundle from their own origin with <script type="module">, which needs CORS.
    c.res.headers.set('access-control-allow-origin', '*');
    c.res.headers.set('cache-control', 'public, max-age=300');
  });
  app.use('/sdk/*', serveStatic({ root: dist }));
  app.use('/assets/*', serveStatic({ root: `${dist}demo` }));
  app.get('/', serveStatic({ root: `${dist}demo`, path: 'index.html' }));
  app.get('/index.html', serveStatic({ root: `${dist}demo`, path: 'index.html' }));
  return app;
}
