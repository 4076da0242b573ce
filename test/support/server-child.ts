// A server as a child process for tests: its output drained and kept, its port read from what it prints once listening
// (it listens on port 0: no port is picked before it is bound), killed when the test file ends if still running.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

/** A deadline for a slow step (a server's start-up), stretched on slow machines by RAMP_TEST_TIMEOUT_SCALE. */
export function scaledMs(ms: number): number {
  const scale = Number(process.env.RAMP_TEST_TIMEOUT_SCALE);
  return ms * (Number.isFinite(scale) && scale > 0 ? scale : 1);
}

export interface ServerChild {
  child: ChildProcess;
  /** The port it listens on, once it says so; rejects if it exits first or the start-up deadline passes. */
  port: Promise<number>;
  /** Its exit code (null after a signal). */
  exited: Promise<number | null>;
  /** Everything it printed, or the last 20 kB with `tail`. */
  output(): string;
  /** Sends the signal (SIGKILL by default) and resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, SIGKILL if it has not gone in 10 s. */
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
after(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

// The JSON log line ("port":N … "listening") at info level; below it, the line `npm start` prints (its URL names the port
// when RAMP_PUBLIC_URL is unset).
const listeningLog = /"port":(\d+)[^\n]*"msg":"listening"/;
const listeningLine = /listening on https?:\/\/[^\s]*:(\d+)/;

/**
 * Node's arguments for the server: the bundle `npm test` builds from the sources at the start of a stage
 * (RAMP_TEST_SERVER_BUNDLE, scripts/test.mjs), which starts without compiling TypeScript; else the sources through tsx (a
 * test file run on its own).
 */
export function serverArgs(): string[] {
  const bundle = process.env.RAMP_TEST_SERVER_BUNDLE;
  return bundle && existsSync(bundle) ? [bundle] : ['--import', 'tsx', `${root}server/main.ts`];
}

/**
 * Starts node with `args` (default: the server, `serverArgs()`) and `env` over this process's environment. Keeps at most
 * `keep` characters of output (all by default).
 */
export function spawnServer(env: Record<string, string | undefined>, opts: { args?: string[]; keep?: number; startupMs?: number } = {}): ServerChild {
  const args = opts.args ?? serverArgs();
  const fullEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) fullEnv[k] = v;
  const child = spawn(process.execPath, args, { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  const keep = opts.keep ?? Number.POSITIVE_INFINITY;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      started.delete(child);
      resolve(code);
    }),
  );
  const port = new Promise<number>((resolve, reject) => {
    const limit = scaledMs(opts.startupMs ?? 120_000);
    const deadline = setTimeout(() => reject(new Error(`the server did not listen within ${Math.round(limit / 1000)} s (RAMP_TEST_TIMEOUT_SCALE stretches it):\n${out.slice(-4000)}`)), limit);
    // Always drained: a full pipe would block the server.
    const take = (d: Buffer) => {
      out += d;
      if (out.length > keep) out = out.slice(-keep);
      const m = listeningLog.exec(out) ?? listeningLine.exec(out);
      if (m) {
        clearTimeout(deadline);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    void exited.then((code) => {
      clearTimeout(deadline);
      reject(new Error(`the server exited (${code ?? child.signalCode}) before listening:\n${out.slice(-4000)}`));
    });
  });
  // Nobody may be waiting for the port (a test that only wants the exit): never an unhandled rejection.
  port.catch(() => {});
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await kill('SIGTERM');
    clearTimeout(gone);
  };
  return { child, port, exited, output: () => out, kill, stop };
}
