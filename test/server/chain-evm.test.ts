// The EVM ChainClient (server/providers/chain/evm.ts) against a real node: anvil with blocks mined only when the test says
// so, two TestTokens (6 and 18 decimals), offline signing, idempotent broadcast, receipts through a reorg, Transfer logs,
// and typed errors for a node that is down, hangs or fails.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createTestClient, http, keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { type AnvilNode, DEV_ACCOUNTS, startAnvil } from '../../scripts/devnet/anvil.mjs';
import { compileTestToken, deployToken, mint } from '../../scripts/devnet/token.mjs';
import { toBaseUnits } from '../../server/domain/chain/amounts';
import {
  type Address,
  type ChainClient,
  ChainUnavailableError,
  ContractCallError,
  TransactionRejectedError,
} from '../../server/domain/chain/chain-client';
import { DEFAULT_TOKEN_TRANSFER_GAS, evmChainClient } from '../../server/providers/chain/evm';

const CHAIN_ID = 31_337;
const scale = Number(process.env.RAMP_TEST_TIMEOUT_SCALE) > 0 ? Number(process.env.RAMP_TEST_TIMEOUT_SCALE) : 1;
const [deployer, treasury] = DEV_ACCOUNTS;

let node: AnvilNode | undefined;
let chain: ChainClient;
let testClient: ReturnType<typeof createTestClient>;
let usdc: Address; // 6 decimals
let weth: Address; // 18 decimals

/** Mines one block (the node mines nothing by itself in this file) and returns its number. */
async function mineBlock(): Promise<bigint> {
  await testClient.mine({ blocks: 1 });
  return chain.blockNumber();
}

/** A treasury → `to` USDC transfer, signed at the treasury's next pending nonce with the node's current fees. */
async function signUsdc(to: Address, amount: bigint, over: { gas?: bigint; nonce?: number } = {}) {
  const nonce = over.nonce ?? (await chain.pendingNonce(treasury.address));
  return chain.signTokenTransfer({ privateKey: treasury.privateKey, token: usdc, to, amount, nonce, ...(await chain.fees()), gas: over.gas });
}

const freshAddress = (): Address => privateKeyToAddress(generatePrivateKey());

before(async () => {
  // Compiling (seconds, synchronous) while anvil boots.
  const starting = startAnvil({ chainId: CHAIN_ID });
  compileTestToken();
  node = await starting;
  chain = evmChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5000 * scale, retryCount: 0 });
  testClient = createTestClient({ mode: 'anvil', transport: http(node.rpcUrl, { retryCount: 0 }) });
  // Deployed and funded with automine on (the helpers wait for receipts); from then on blocks come only from mineBlock().
  usdc = await deployToken(node.rpcUrl, { name: 'USD Coin', symbol: 'USDC', decimals: 6, deployerKey: deployer.privateKey });
  weth = await deployToken(node.rpcUrl, { name: 'Wrapped Ether', symbol: 'WETH', decimals: 18, deployerKey: deployer.privateKey });
  await mint(node.rpcUrl, { token: usdc, to: treasury.address, amount: toBaseUnits('1000000', 6), ownerKey: deployer.privateKey });
  await testClient.setAutomine(false);
});

after(async () => {
  await node?.stop();
});

describe('EVM chain client: reads', () => {
  test('the chain id is the node’s and decimals come from each contract', async () => {
    assert.equal(await chain.chainId(), CHAIN_ID);
    assert.equal(await chain.decimals(usdc), 6);
    assert.equal(await chain.decimals(weth), 18);
  });

  test('minted tokens show in balanceOf in base units; native balances are wei', async () => {
    const holder = freshAddress();
    assert.equal(await chain.tokenBalance(weth, holder), 0n);
    await testClient.setAutomine(true);
    try {
      await mint(node!.rpcUrl, { token: weth, to: holder, amount: toBaseUnits('2.5', 18), ownerKey: deployer.privateKey });
    } finally {
      await testClient.setAutomine(false);
    }
    assert.equal(await chain.tokenBalance(weth, holder), 2_500_000_000_000_000_000n);
    assert.ok((await chain.tokenBalance(usdc, treasury.address)) >= toBaseUnits('1', 6));
    assert.equal(await chain.nativeBalance(holder), 0n);
    assert.ok((await chain.nativeBalance(treasury.address)) > 10n ** 18n);
  });

  test('a block is read by number with its parent hash; a block beyond the head is null', async () => {
    const head = await chain.blockNumber();
    const block = await chain.block(head);
    const parent = await chain.block(head - 1n);
    assert.equal(block?.number, head);
    assert.equal(block?.parentHash, parent?.hash);
    assert.equal(await chain.block(head + 1000n), null);
  });

  test('fees are EIP-1559 with a tip no higher than the cap', async () => {
    const fees = await chain.fees();
    assert.ok(fees.maxPriorityFeePerGas > 0n);
    assert.ok(fees.maxFeePerGas >= fees.maxPriorityFeePerGas);
  });

  test('an address without code is no token: a ContractCallError, not an outage', async () => {
    await assert.rejects(chain.decimals(freshAddress()), ContractCallError);
    await assert.rejects(chain.tokenBalance(freshAddress(), treasury.address), ContractCallError);
  });

  test('gas is estimated for a transfer the sender can make; one beyond its balance would revert', async () => {
    const gas = await chain.estimateTokenTransferGas({ token: usdc, from: treasury.address, to: freshAddress(), amount: 1n });
    assert.ok(gas > 21_000n && gas < DEFAULT_TOKEN_TRANSFER_GAS, `estimate ${gas}`);
    await assert.rejects(
      chain.estimateTokenTransferGas({ token: usdc, from: freshAddress(), to: treasury.address, amount: 1n }),
      (e: unknown) => e instanceof ContractCallError && /insufficient balance/.test(e.message),
    );
  });
});

describe('EVM chain client: signing and broadcasting', () => {
  test('a signed transfer is only signed: the node sees nothing until it is broadcast', async () => {
    const to = freshAddress();
    const nonce = await chain.pendingNonce(treasury.address);
    const signed = await signUsdc(to, 1n);
    assert.equal(signed.hash, keccak256(signed.raw));
    assert.equal(await chain.pendingNonce(treasury.address), nonce);
    await mineBlock();
    assert.equal(await chain.receipt(signed.hash), null);
    assert.equal(await chain.tokenBalance(usdc, to), 0n);
  });

  test('broadcast is idempotent: the same raw again, pooled or mined, gives the same hash; the receipt appears once mined', async () => {
    const to = freshAddress();
    const latest = await chain.latestNonce(treasury.address);
    const signed = await signUsdc(to, toBaseUnits('12.34', 6));

    assert.equal(await chain.broadcast(signed.raw), signed.hash);
    assert.equal(await chain.broadcast(signed.raw), signed.hash); // anvil: "transaction already imported"
    assert.equal(await chain.pendingNonce(treasury.address), latest + 1, 'the pooled transfer counts in the pending nonce');
    assert.equal(await chain.latestNonce(treasury.address), latest, 'but not in the latest one');
    assert.equal(await chain.receipt(signed.hash), null, 'no receipt before a block');

    const mined = await mineBlock();
    const receipt = await chain.receipt(signed.hash);
    assert.equal(receipt?.status, 'success');
    assert.equal(receipt?.blockNumber, mined);
    assert.equal(receipt?.blockHash, (await chain.block(mined))?.hash);
    assert.ok(receipt && receipt.gasUsed > 21_000n);
    assert.equal(await chain.latestNonce(treasury.address), latest + 1);
    assert.equal(await chain.tokenBalance(usdc, to), 12_340_000n);

    assert.equal(await chain.broadcast(signed.raw), signed.hash); // anvil: "nonce too low", for this very transaction
    await mineBlock();
    assert.equal(await chain.tokenBalance(usdc, to), 12_340_000n, 'sent once, however often broadcast');
  });

  test('a different transaction on a used nonce is rejected as nonce-too-low; an unfunded sender as insufficient-funds', async () => {
    const first = await signUsdc(freshAddress(), 1n);
    await chain.broadcast(first.raw);
    await mineBlock();
    const other = await signUsdc(freshAddress(), 2n, { nonce: (await chain.latestNonce(treasury.address)) - 1 });
    await assert.rejects(chain.broadcast(other.raw), (e: unknown) => e instanceof TransactionRejectedError && e.reason === 'nonce-too-low');

    const poor = await chain.signNativeTransfer({ privateKey: generatePrivateKey(), to: treasury.address, value: 1n, nonce: 0, ...(await chain.fees()) });
    await assert.rejects(chain.broadcast(poor.raw), (e: unknown) => e instanceof TransactionRejectedError && e.reason === 'insufficient-funds');
  });

  test('a fee cap below the base fee is rejected as underpriced', async () => {
    const signed = await chain.signNativeTransfer({
      privateKey: treasury.privateKey,
      to: freshAddress(),
      value: 1n,
      nonce: await chain.pendingNonce(treasury.address),
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    });
    await assert.rejects(chain.broadcast(signed.raw), (e: unknown) => e instanceof TransactionRejectedError && e.reason === 'underpriced');
  });

  test('native transfers fund gas; the value arrives in wei', async () => {
    const to = freshAddress();
    const signed = await chain.signNativeTransfer({ privateKey: treasury.privateKey, to, value: 10n ** 16n, nonce: await chain.pendingNonce(treasury.address), ...(await chain.fees()) });
    await chain.broadcast(signed.raw);
    await mineBlock();
    assert.equal((await chain.receipt(signed.hash))?.status, 'success');
    assert.equal(await chain.nativeBalance(to), 10n ** 16n);
  });

  test('bad signing input is refused before anything is signed, and the error never repeats a key', async () => {
    const fees = await chain.fees();
    const key = `0x${'ab'.repeat(31)}` as const; // one byte short
    await assert.rejects(
      chain.signNativeTransfer({ privateKey: key, to: treasury.address, value: 1n, nonce: 0, ...fees }),
      (e: unknown) => e instanceof RangeError && !e.message.includes('abab') && e.cause === undefined,
    );
    await assert.rejects(signUsdc(treasury.address, -1n), RangeError);
    await assert.rejects(chain.signNativeTransfer({ privateKey: treasury.privateKey, to: treasury.address, value: 1n, nonce: -1, ...fees }), RangeError);
    await assert.rejects(
      chain.signNativeTransfer({ privateKey: treasury.privateKey, to: treasury.address, value: 1n, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 2n }),
      RangeError,
    );
  });

  test('a transfer that reverts on chain is mined with status reverted', async () => {
    // More than the treasury holds, with an explicit gas limit (estimating it would refuse).
    const signed = await signUsdc(freshAddress(), toBaseUnits('1000000000', 6), { gas: DEFAULT_TOKEN_TRANSFER_GAS });
    await chain.broadcast(signed.raw);
    await mineBlock();
    assert.equal((await chain.receipt(signed.hash))?.status, 'reverted');
  });
});

describe('EVM chain client: Transfer logs and reorgs', () => {
  test('transferLogs finds the Transfer with its fields, and filters by recipient', async () => {
    const to = freshAddress();
    const signed = await signUsdc(to, toBaseUnits('7.5', 6));
    await chain.broadcast(signed.raw);
    const mined = await mineBlock();
    const receipt = await chain.receipt(signed.hash);

    const logs = await chain.transferLogs(usdc, mined, mined);
    assert.deepEqual(logs, [{ from: treasury.address, to, value: 7_500_000n, transactionHash: signed.hash, logIndex: 0, blockNumber: mined, blockHash: receipt?.blockHash }]);
    assert.deepEqual(await chain.transferLogs(usdc, mined, mined, { to: [to, freshAddress()] }), logs);
    assert.deepEqual(await chain.transferLogs(usdc, mined, mined, { to: [freshAddress()] }), []);
    assert.deepEqual(await chain.transferLogs(usdc, mined, mined, { to: [] }), []);
    assert.deepEqual(await chain.transferLogs(weth, mined, mined), [], 'another token’s logs are not this one’s');
  });

  test('a reorg takes the receipt and the log away; the same raw broadcast again lands in a block with a new hash', async () => {
    const to = freshAddress();
    const signed = await signUsdc(to, 5n);
    await chain.broadcast(signed.raw);
    const mined = await mineBlock();
    const before = await chain.receipt(signed.hash);
    assert.equal(before?.blockNumber, mined);

    // anvil_reorg(depth, txs): replaces the last `depth` blocks with new ones holding only `txs`. Anvil drops the
    // reorged-out transactions (a real node would return them to its pool), which is the harder case for a caller.
    await testClient.request({ method: 'anvil_reorg', params: [1, []] } as never);
    assert.equal(await chain.blockNumber(), mined, 'same height');
    assert.notEqual((await chain.block(mined))?.hash, before?.blockHash, 'different block at that height');
    assert.equal(await chain.receipt(signed.hash), null, 'the receipt is gone');
    assert.deepEqual(await chain.transferLogs(usdc, mined, mined), [], 'and so is the Transfer');
    assert.equal(await chain.tokenBalance(usdc, to), 0n);

    assert.equal(await chain.broadcast(signed.raw), signed.hash, 'the same signed transaction is accepted again');
    const again = await mineBlock();
    const after = await chain.receipt(signed.hash);
    assert.equal(after?.status, 'success');
    assert.equal(after?.blockNumber, again);
    assert.notEqual(after?.blockHash, before?.blockHash);
    assert.equal(await chain.tokenBalance(usdc, to), 5n);
  });
});

describe('EVM chain client: a node that is down or failing', () => {
  /** A local HTTP server answering every request with `handle` (or never, when it does not respond). */
  async function fakeNode(handle: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
    const server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }
  async function close(server: Server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  /** Fails unless `promise` rejects with ChainUnavailableError within `ms` (scaled). */
  async function unavailableWithin(ms: number, promise: Promise<unknown>) {
    const started = performance.now();
    await assert.rejects(promise, ChainUnavailableError);
    const took = performance.now() - started;
    assert.ok(took < ms * scale, `took ${Math.round(took)} ms`);
  }

  test('a closed port: ChainUnavailableError at once, for reads and for broadcast', async () => {
    const { url, server } = await fakeNode(() => {});
    await close(server); // the port was free a moment ago and nothing listens on it now
    const down = evmChainClient({ rpcUrl: url, timeoutMs: 1000, retryCount: 0 });
    await unavailableWithin(1000, down.blockNumber());
    await unavailableWithin(1000, down.decimals(usdc));
    const signed = await signUsdc(freshAddress(), 1n);
    await unavailableWithin(1000, down.broadcast(signed.raw));
  });

  test('a node that never answers: ChainUnavailableError after the timeout, retries included', async () => {
    const { url, server } = await fakeNode(() => {}); // accepts and says nothing
    try {
      const hung = evmChainClient({ rpcUrl: url, timeoutMs: 200, retryCount: 1 });
      await unavailableWithin(2000, hung.receipt(keccak256('0x01')));
    } finally {
      await close(server);
    }
  });

  test('bad answers are outages: HTTP 503 and 429, JSON-RPC errors, a 200 that is not JSON-RPC, a refusal nobody can name', async () => {
    const answers: [status: number, body: string][] = [
      [503, 'upstream down'],
      [429, 'slow down'],
      [200, JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'internal error' } })],
      [200, JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32000, message: 'header not found' } })],
      [200, '<html>502 Bad Gateway</html>'],
      [200, ''],
    ];
    const signed = await signUsdc(freshAddress(), 1n);
    for (const [status, body] of answers) {
      const { url, server } = await fakeNode((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
      try {
        const bad = evmChainClient({ rpcUrl: url, timeoutMs: 1000, retryCount: 0 });
        await unavailableWithin(2000, bad.blockNumber());
        await unavailableWithin(2000, bad.tokenBalance(usdc, treasury.address));
        // Not a TransactionRejectedError: only a refusal that names its reason may make a caller give a payout up.
        await unavailableWithin(2000, bad.broadcast(signed.raw));
        // Signing needs the chain id, so with no node to ask it it waits like the rest.
        await unavailableWithin(
          2000,
          bad.signNativeTransfer({ privateKey: treasury.privateKey, to: treasury.address, value: 1n, nonce: 0, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n }),
        );
      } finally {
        await close(server);
      }
    }
  });

  test('the node going away mid-run is an outage, not a rejection', async () => {
    const own = await startAnvil({ chainId: 31_399 });
    const client = evmChainClient({ rpcUrl: own.rpcUrl, timeoutMs: 1000, retryCount: 0 });
    try {
      assert.equal(await client.chainId(), 31_399);
      const signed = await client.signNativeTransfer({ privateKey: treasury.privateKey, to: freshAddress(), value: 1n, nonce: 0, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
      await own.stop();
      await unavailableWithin(1000, client.broadcast(signed.raw));
      await unavailableWithin(1000, client.pendingNonce(treasury.address));
    } finally {
      await own.stop();
    }
  });
});

describe('anvil for tests and the devnet', () => {
  test('a process that dies without stopping its node leaves nothing serving', async () => {
    // A child process starts a node and then crashes (an uncaught error, as a failing test file would).
    const script = `import { startAnvil } from ${JSON.stringify(new URL('../../scripts/devnet/anvil.mjs', import.meta.url).href)};
      const n = await startAnvil({ chainId: 31_398 });
      console.log(JSON.stringify({ pid: n.child.pid, rpcUrl: n.rpcUrl }));
      throw new Error('crash');`;
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]).then(
      () => assert.fail('the child should have crashed'),
      (err: { stdout: string }) => err.stdout,
    );
    const { pid, rpcUrl } = JSON.parse(run) as { pid: number; rpcUrl: string };
    const gone = () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    const until = Date.now() + 5000 * scale;
    while (!gone() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    try {
      assert.ok(gone(), `anvil ${pid} is still running`);
      await unreachable(rpcUrl);
    } finally {
      if (!gone()) process.kill(pid, 'SIGKILL'); // a failing run must not leave it serving either
    }
  });
});

/** Fails unless nothing answers at `rpcUrl`. */
async function unreachable(rpcUrl: string) {
  await assert.rejects(fetch(rpcUrl, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) }));
}
