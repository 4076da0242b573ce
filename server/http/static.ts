// The built browser assets: the script-tag bundle at /sdk (loadable cross-origin as a module) and, in sandbox only, the demo page at /.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';

// From server/http/ in the sources, or from dist/server/ when running the bundle that `npm start` builds.
const here = fileURLToPath(new URL('.', import.meta.url));
const dist = /[\\/]dist[\\/]server[\\/]$/.test(here) ? fileURLToPath(new URL('../', import.meta.url)) : fileURLToPath(new URL('../../dist/', import.meta.url));

/** `onboarding-BsHDIdG4.js`, `messages-pt-BR-core-2f4JyLWB.js` (and their maps): Vite's `[name]-[hash].js` chunks. */
export const DEMO_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function isHashedChunk(path: string): boolean {
  return /\/sdk\/[\w.~-]+-[\w-]{8}\.js(\.map)?$/.test(path) && !path.endsWith('/ramp-widget.js');
}

/** `demo`: serve the demo page and its assets (sandbox); in production they do not exist (404). */
export function staticApp(opts: { demo: boolean }) {
  const app = new Hono();
  if (!existsSync(`${dist}sdk`)) {
    const missing = (c: { text: (t: string, s: 503) => Response }) => c.text('The browser bundle is not built: run `npm run build` (npm start does it for you).', 503);
    app.get('/sdk/*', missing);
    if (opts.demo) app.get('/', missing);
    return app;
  }
  app.use('/sdk/*', compress());
  // The build manifest (chunk graph, for the size budget) is not for the browser.
  app.get('/sdk/.vite/*', (c) => c.notFound());
  // Nor are the compressed copies, which are only ever sent in place of their file (below).
  app.use('/sdk/*', async (c, next) => (/\.(br|gz)$/.test(c.req.path) ? c.notFound() : next()));
  app.use('/sdk/*', async (c, next) => {
    await next();
    // Partners load the loader and its chunks from their own origin with <script type="module">, which needs CORS.
    c.res.headers.set('access-control-allow-origin', '*');
    // …and may time it (Resource Timing's detail is hidden cross-origin without this).
    c.res.headers.set('timing-allow-origin', '*');
    // The loader keeps its name across releases: cached briefly. Chunks carry a content hash: cached for good.
    c.res.headers.set('cache-control', c.res.ok && isHashedChunk(c.req.path) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
  });
  // The build wrote a brotli and a gzip copy of each file (vite.config.ts, ramp-precompress): sent as they are, and
  // compress() above leaves an answer that already has its encoding alone (it still compresses the source maps).
  app.use('/sdk/*', serveStatic({ root: dist, precompressed: true }));
  if (!opts.demo) return app;
  // The demo page mints sessions for itself: it is never framed (no clickjacking of its buttons), and it runs only its own
  // scripts and styles against its own origin (the components' styles are constructed sheets); QR codes are data: images.
  const noFrames = async (c: { res: Response }, next: () => Promise<void>) => {
    await next();
    c.res.headers.set('x-frame-options', 'DENY');
    c.res.headers.set('content-security-policy', DEMO_POLICY);
  };
  app.use('/', noFrames);
  app.use('/index.html', noFrames);
  app.use('/assets/*', compress());
  app.use('/assets/*', serveStatic({ root: `${dist}demo`, precompressed: true }));
  app.get('/', serveStatic({ root: `${dist}demo`, path: 'index.html', precompressed: true }));
  app.get('/index.html', serveStatic({ root: `${dist}demo`, path: 'index.html', precompressed: true }));
  return app;
}
