// Builds the two browser artefacts the server serves: the script-tag SDK (dist/sdk/ramp-widget.js) and the demo page (dist/demo).
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The server the dev page talks to (`npm run dev`); `npx vite` then serves the demo with the SDK from source. */
const devServer = process.env.RAMP_DEV_SERVER ?? 'http://localhost:8787';

/** In `vite` dev only: the demo's real embed, `/sdk/ramp-widget.js`, is answered with the SDK's source entry. */
function sdkFromSource(): Plugin {
  return {
    name: 'ramp-sdk-from-source',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url?.split('?')[0] === '/sdk/ramp-widget.js') req.url = `/@fs${here('./src/define.ts')}`;
        next();
      });
    },
  };
}

/**
 * One `vite build`, two environments: `sdk` is a library build of src/define.ts into one minified ES module with Lit
 * inside (partners load it with a plain `<script type="module">`); `client` is the demo page, whose script tag for
 * `/sdk/ramp-widget.js` stays as written (`vite-ignore`), exactly as on a partner's page.
 */
export default defineConfig({
  root: here('./demo'),
  base: '/',
  publicDir: false,
  appType: 'mpa',
  plugins: [sdkFromSource()],
  server: {
    fs: { allow: [here('.')] },
    proxy: Object.fromEntries(['/bff', '/demo/session', '/v2', '/docs', '/openapi.json'].map((path) => [path, devServer])),
  },
  environments: {
    sdk: {
      consumer: 'client',
      build: {
        outDir: here('./dist/sdk'),
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: true,
        copyPublicDir: false,
        lib: {
          entry: here('./src/define.ts'),
          formats: ['es'],
          fileName: () => 'ramp-widget.js',
        },
        rolldownOptions: {
          // One file, minified: library output keeps whitespace unless asked (build.minify alone does not do it here).
          output: { codeSplitting: false, minify: true },
        },
      },
    },
    client: {
      build: {
        outDir: here('./dist/demo'),
        emptyOutDir: true,
        assetsDir: 'assets',
        target: 'es2022',
        copyPublicDir: false,
        rolldownOptions: { input: here('./demo/index.html') },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.sdk!);
      await builder.build(builder.environments.client!);
    },
  },
});
