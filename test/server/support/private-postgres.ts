// A PostgreSQL instance of a test's own (initdb in a temporary dir) that the test can stop and start, as a real outage does.
import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trusted. */
  url: string;
  /** A fast shutdown (sessions terminated, then a clean stop); resolves once the server is down. */
  stop(): Promise<void>;
  /** Resolves once the server accepts connections again. */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its directory. */
  close(): Promise<void>;
}

/** The newest installed server's binaries: Debian keeps each version in /usr/lib/postgresql/<major>/bin; else pg_config's. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (debian[0]) return join(root, debian[0], 'bin');
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return existsSync(join(dir, 'initdb')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user, through runuser. */
function runAs(): { user?: { uid: number; gid: number } } | { unavailable: string } {
  if (process.getuid?.() !== 0) return {};
  try {
    execFileSync('runuser', ['--help'], { stdio: 'ignore' });
  } catch {
    return { unavailable: 'running as root without runuser' };
  }
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { user: { uid: id('-u'), gid: id('-g') } };
  } catch {
    return { unavailable: 'running as root without a postgres user' };
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A running private instance, or why this machine cannot run one (no binaries, no user to run them as). */
export async function startPrivatePostgres(): Promise<PrivatePostgres | { unavailable: string }> {
  const bin = binDir();
  if (!bin) return { unavailable: 'no PostgreSQL server binaries (initdb, pg_ctl)' };
  const as = runAs();
  if ('unavailable' in as) return as;
  const dir = mkdtempSync(join(tmpdir(), 'ramp-pg-'));
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  if (as.user) {
    chownSync(dir, as.user.uid, as.user.gid);
    chownSync(data, as.user.uid, as.user.gid);
  }
  const run = (tool: string, args: string[]) =>
    as.user ? execFile('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: dir }) : execFile(join(bin, tool), args, { cwd: dir });
  const port = await freePort();
  const instance: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      // The socket goes in the instance's own dir: the shared server's /var/run/postgresql is not ours to use.
      await run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
    },
    async stop() {
      await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async close() {
      // postmaster.pid is there while a server runs, also one whose start timed out.
      if (existsSync(join(data, 'postmaster.pid'))) await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await instance.start();
  } catch (err) {
    await instance.close();
    throw err;
  }
  return instance;
}
