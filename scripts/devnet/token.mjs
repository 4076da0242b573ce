// The devnet's stand-in stablecoin: compiles contracts/TestToken.sol with solc-js (in-process, no network), deploys and mints it with viem.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const require = createRequire(import.meta.url);
const source = new URL('../../contracts/TestToken.sol', import.meta.url);

/** @type {{ abi: import('viem').Abi, bytecode: `0x${string}` } | undefined} */
let compiled;

/**
 * The token's ABI and creation bytecode. Compiled once per process (loading solc's WebAssembly and compiling take a
 * few seconds). The EVM version is pinned so the bytecode does not change with solc's default.
 */
export function compileTestToken() {
  if (compiled) return compiled;
  const solc = require('solc');
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: readFileSync(source, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { 'TestToken.sol': { TestToken: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`TestToken.sol does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts['TestToken.sol'].TestToken;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

/** Clients for one node; a short polling interval because anvil mines at once and viem's default waits 4 s. */
function clients(rpcUrl, key) {
  const transport = http(rpcUrl, { retryCount: 0 });
  const account = privateKeyToAccount(key);
  return {
    account,
    publicClient: createPublicClient({ transport, pollingInterval: 50 }),
    walletClient: createWalletClient({ account, transport, pollingInterval: 50 }),
  };
}

/** Deploys a TestToken from `deployerKey` (which becomes its owner, the only minter); resolves to its address once mined (waits for a block). */
export async function deployToken(rpcUrl, { name, symbol, decimals, deployerKey }) {
  const { abi, bytecode } = compileTestToken();
  const { account, publicClient, walletClient } = clients(rpcUrl, deployerKey);
  const hash = await walletClient.deployContract({ abi, bytecode, args: [name, symbol, decimals], account, chain: null });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${symbol} failed (${hash})`);
  return getAddress(receipt.contractAddress); // EIP-55, the form the service stores addresses in
}

/** Mints `amount` base units of `token` to `to`, signed by the owner's key; resolves to the transaction hash once mined. */
export async function mint(rpcUrl, { token, to, amount, ownerKey }) {
  const { abi } = compileTestToken();
  const { account, publicClient, walletClient } = clients(rpcUrl, ownerKey);
  const hash = await walletClient.writeContract({ address: token, abi, functionName: 'mint', args: [to, amount], account, chain: null });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== 'success') throw new Error(`minting ${amount} of ${token} to ${to} reverted (${hash})`);
  return hash;
}

/** Sends `value` wei of the chain's native coin (gas money) from `fromKey` to `to`; resolves to the hash once mined. */
export async function sendNative(rpcUrl, { to, value, fromKey }) {
  const { account, publicClient, walletClient } = clients(rpcUrl, fromKey);
  const hash = await walletClient.sendTransaction({ to, value, account, chain: null });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== 'success') throw new Error(`sending ${value} wei to ${to} failed (${hash})`);
  return hash;
}
