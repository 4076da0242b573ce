// Starts and stops anvil (foundry's local EVM node) for the devnet and the chain tests: on 127.0.0.1, on a port it picks itself.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Anvil's dev accounts (mnemonic "test test test test test test test test test test test junk"), each funded with 10 000 ETH. Never on a real chain. */
export const DEV_ACCOUNTS = [
  { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
  { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
];

// The platform packages @foundry-rs/anvil lists as optional dependencies. Its own launcher resolves the same way; we
// spawn the binary directly so that stopping the child stops the node (no wrapper process in between).
const PLATFORM_PACKAGES = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/** The anvil executable for this machine, or one clear error naming the package that is missing. */
export function anvilBinary() {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`anvil: no @foundry-rs/anvil build for ${process.platform}-${process.arch}`);
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`anvil: ${pkg} is not installed (npm install, with optional dependencies, installs it)`);
  }
  const binary = join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new Error(`anvil: ${binary} is missing from ${pkg}`);
  return binary;
}

const scale = () => {
  const v = Number(process.env.RAMP_TEST_TIMEOUT_SCALE);
  return Number.isFinite(v) && v > 0 ? v : 1;
};

// Every node this process started, killed when it exits however it exits (a failed test, process.exit), so none is left serving.
const running = new Set();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Asks the node for its chain id; undefined while it does not answer. */
async function rpcChainId(rpcUrl) {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(2000),
    });
    const body = await res.json();
    return typeof body.result === 'string' ? Number(BigInt(body.result)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts anvil with `chainId`: mining each transaction at once, every `blockTime` seconds, or only on `evm_mine` when
 * `noMining` is set. With `port` 0 (the default) the OS picks a free port and anvil prints it ("Listening on
 * 127.0.0.1:PORT"), so parallel runs cannot race for one. Resolves once eth_chainId answers.
 */
export async function startAnvil({ chainId, blockTime, noMining = false, port: wantedPort = 0, args = [] }) {
  // Not --quiet: it silences the "Listening on" line too.
  const argv = ['--host', '127.0.0.1', '--port', String(wantedPort), '--chain-id', String(chainId), '--color', 'never', ...args];
  if (blockTime !== undefined) argv.push('--block-time', String(blockTime));
  if (noMining) argv.push('--no-mining');
  const child = spawn(anvilBinary(), argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => running.delete(child));

  // Kept for the error message; anvil logs every RPC method it serves, so once listening the output is only drained.
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stderr.setEncoding('utf8').on('data', keep);
  child.stdout.setEncoding('utf8');

  const deadlineMs = 60_000 * scale();
  const stop = () => stopChild(child, exited);
  const fail = async (why) => {
    await stop();
    throw new Error(`anvil (chain ${chainId}) ${why}\n${output.trim().split('\n').slice(-20).join('\n')}`);
  };

  const port = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), deadlineMs);
    const onData = (chunk) => {
      keep(chunk);
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.once('error', (err) => {
      running.delete(child);
      keep(`${err.message}\n`);
      clearTimeout(timer);
      resolve(undefined);
    });
    exited.then(() => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  if (port === undefined) return fail(child.exitCode !== null || child.signalCode ? 'exited before listening' : `did not listen within ${deadlineMs / 1000} s`);

  const rpcUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + deadlineMs;
  for (;;) {
    const id = await rpcChainId(rpcUrl);
    if (id === chainId) break;
    if (id !== undefined) return fail(`answers with chain id ${id}`);
    if (child.exitCode !== null || child.signalCode) return fail('exited before answering');
    if (Date.now() > until) return fail(`did not answer eth_chainId within ${deadlineMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { rpcUrl, chainId, child, stop };
}

/** SIGTERM, then SIGKILL if the node has not exited within 5 s; resolves once it has. */
async function stopChild(child, exited) {
  // No pid: the spawn itself failed, and there is nothing to stop.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
