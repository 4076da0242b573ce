// The flags `npm start` gives node for the bundled server, per database (the start script runs this file and passes on
// what it prints; benches and end-to-end tests import `nodeFlags` to run the server as `npm start` does).
//
// The young generation (V8's semi-space) is set per store. Embedded PGlite keeps it at 8 MB: its heap shares the
// process with PGlite's WebAssembly memory, and the server's memory under load has a budget. On PostgreSQL nothing else
// lives in the process, and a 32 MB semi-space is scavenged a quarter as often under heavy reads (docs/performance.md).
// OTEL_TRACES_EXPORTER set: `--import` of the tracing preload (server/tracing-preload.ts), which must run before the server's
// modules load; unset, nothing of OpenTelemetry's SDK is loaded.
// `--liftoff-only` keeps PGlite's WebAssembly on V8's baseline compiler (its optimising tier-up filled malloc arenas of
// the compiler threads for no throughput the bench could see).

import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** OTEL_TRACES_EXPORTER names an exporter (not only `none`): tracing is on. */
export const tracesExporter = (env = process.env) => (env.OTEL_TRACES_EXPORTER ?? '').split(',').some((s) => s.trim() && s.trim() !== 'none');

/**
 * The node flags for the server process, for the environment it runs in. With tracing on, the OpenTelemetry preload the
 * build puts beside the bundle (`preload`, relative to the working directory as `npm start` runs it) is imported first.
 */
export function nodeFlags(env = process.env, preload = './dist/server/tracing-preload.js') {
  return ['--enable-source-maps', `--max-semi-space-size=${env.DATABASE_URL ? 32 : 8}`, '--liftoff-only', ...(tracesExporter(env) ? ['--import', preload] : [])];
}

// Run as a script (the start script): print them. Compared as real paths' URLs, so a checkout path with spaces or a
// symlink still matches.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) process.stdout.write(`${nodeFlags().join(' ')}\n`);
