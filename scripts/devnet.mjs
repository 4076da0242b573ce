// `npm run devnet`: one anvil per EVM chain (ETHEREUM, BASE, POLYGON) with test USDC and USDT deployed, printing the environment that points the server at them. Runs until Ctrl-C.
import { parseArgs } from 'node:util';
import { isAddress } from 'viem';
import { DEV_ACCOUNTS, startAnvil } from './devnet/anvil.mjs';
import { compileTestToken, deployToken, mint, sendNative } from './devnet/token.mjs';

const USAGE = `Usage: npm run devnet -- [--fund <address>]... [--port <first>] [--block-time <seconds>]

  --fund <address>      mint 1 000 000 USDC and USDT to it and send it 100 of the native coin, on every chain (repeatable)
  --port <first>        ETHEREUM listens on <first>, BASE on <first>+1, POLYGON on <first>+2 (default 8545; 0: any free ports)
  --block-time <s>      mine a block every <s> seconds instead of one per transaction (to watch confirmations count up)`;

// Distinct chain ids, so a transaction signed for one devnet chain is refused by the others, as on the real ones. Each
// chain's tokens are deployed by a different dev account, so their addresses differ too and a token configured on the
// wrong chain shows up as an error rather than as working by accident. A fresh node and a fixed deployer give the same
// addresses every run, so the printed environment stays valid across restarts (with fixed ports).
const CHAINS = [
  { blockchain: 'ETHEREUM', chainId: 31337, owner: DEV_ACCOUNTS[0] },
  { blockchain: 'BASE', chainId: 31338, owner: DEV_ACCOUNTS[1] },
  { blockchain: 'POLYGON', chainId: 31339, owner: DEV_ACCOUNTS[2] },
];
const TOKENS = [
  { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6 },
  { symbol: 'USDT', name: 'Tether USD (devnet)', decimals: 6 },
];
const FUND_TOKENS = 1_000_000n; // whole tokens
const FUND_NATIVE_WEI = 100n * 10n ** 18n;

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        fund: { type: 'string', multiple: true, default: [] },
        port: { type: 'string', default: '8545' },
        'block-time': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    fail(err.message);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const port = Number(parsed.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_533) fail('--port must be 0 or a port number up to 65533');
  const blockTime = parsed['block-time'] === undefined ? undefined : Number(parsed['block-time']);
  if (blockTime !== undefined && !(Number.isInteger(blockTime) && blockTime >= 1 && blockTime <= 30)) fail('--block-time must be a whole number of seconds from 1 to 30');
  for (const a of parsed.fund) if (!isAddress(a, { strict: false })) fail(`--fund: ${a} is not a 0x address`);
  return { fund: parsed.fund, port, blockTime };
}

function fail(message) {
  process.stderr.write(`devnet: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const log = (line) => process.stderr.write(`devnet: ${line}\n`);

async function main() {
  const { fund, port, blockTime } = options();
  const nodes = [];
  let stopping = false;
  const stopAll = () => Promise.all(nodes.map((n) => n.stop()));
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    await stopAll();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  log(`starting anvil for ${CHAINS.map((c) => `${c.blockchain} (chain id ${c.chainId})`).join(', ')}`);
  const starting = CHAINS.map((c, i) => startAnvil({ chainId: c.chainId, blockTime, port: port === 0 ? 0 : port + i }));
  compileTestToken(); // while the nodes boot
  const started = await Promise.allSettled(starting);
  for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    const busy = /already in use/i.test(failed.reason.message) ? `\n(a devnet already running? --port 0 picks free ports)` : '';
    log(failed.reason.message + busy);
    return shutdown(1);
  }
  for (const n of nodes) {
    n.child.once('exit', (code, signal) => {
      // A Ctrl-C in the terminal reaches the nodes too (one process group); let our own SIGINT handler win that race.
      setTimeout(() => {
        if (stopping) return;
        log(`the anvil of chain ${n.chainId} exited (${signal ?? `code ${code}`}); stopping the others`);
        void shutdown(1);
      }, 250);
    });
  }

  const chains = await Promise.all(
    CHAINS.map(async (c, i) => {
      const rpcUrl = nodes[i].rpcUrl;
      const tokens = {};
      // One after the other: the same deployer's nonces must come in order.
      for (const t of TOKENS) tokens[t.symbol] = await deployToken(rpcUrl, { name: t.name, symbol: t.symbol, decimals: t.decimals, deployerKey: c.owner.privateKey });
      for (const address of fund) {
        for (const t of TOKENS) await mint(rpcUrl, { token: tokens[t.symbol], to: address, amount: FUND_TOKENS * 10n ** BigInt(t.decimals), ownerKey: c.owner.privateKey });
        await sendNative(rpcUrl, { to: address, value: FUND_NATIVE_WEI, fromKey: c.owner.privateKey });
      }
      return { ...c, rpcUrl, tokens };
    }),
  );

  const lines = [
    `# Ramp devnet: anvil on 127.0.0.1, ${blockTime ? `a block every ${blockTime} s` : 'a block per transaction'}. Test tokens only; nothing here exists on a real chain.`,
    `# Chain ids: ${chains.map((c) => `${c.blockchain} ${c.chainId}`).join(', ')}.`,
  ];
  for (const c of chains) {
    lines.push(`RAMP_CHAIN_RPC_${c.blockchain}=${c.rpcUrl}`);
    for (const t of TOKENS) lines.push(`RAMP_CHAIN_TOKEN_${c.blockchain}_${t.symbol}=${c.tokens[t.symbol]}`);
    lines.push(`RAMP_CHAIN_CONFIRMATIONS_${c.blockchain}=1`);
  }
  if (fund.length) lines.push(`# Funded on every chain with ${FUND_TOKENS} USDC, ${FUND_TOKENS} USDT and 100 native: ${fund.join(', ')}`);
  lines.push(
    '# Fund the treasury (tokens and gas on every chain): restart with `npm run devnet -- --fund <treasury address>` (repeatable).',
    `# Token owners (the only minters), anvil's public dev keys: ${chains.map((c) => `${c.blockchain} ${c.owner.address} ${c.owner.privateKey}`).join('; ')}`,
    '# Ctrl-C stops the nodes; their state is not kept.',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exit(1);
});
