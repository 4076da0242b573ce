// The operator CLI (`npm run ops -- <command>`): reads the server's configuration and database and the chains' nodes; changes nothing.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openChains } from '../flows/chain/chains';
import { type ReconcileReport, reconcile } from '../flows/chain/reconcile';
import { type PixDiscrepancy, reconcilePix } from '../flows/pix/reconcile';
import { pixPsp } from '../providers/pix';
import { evmChainClient } from '../providers/chain/evm';
import { openStore, type Store } from '../store/db';
import { chainWaits } from '../store/queries/chain-transfers';
import { getSetting } from '../store/queries/settings';
import { treasuryReport, treasuryText } from './treasury';

const USAGE = `Usage: npm run ops -- <command> [--json] [--since <ISO date-time>]

  treasury [--json]   per configured chain (RAMP_CHAIN_RPC_<CHAIN>): the treasury address and its native, USDC and USDT
                      balances on the node; --json prints one object {"<CHAIN>": {"address", "native", "USDC", "USDT"}}
                      (decimal strings; a coin only when its token is configured; "error" when the node did not answer,
                      and the exit code is then 1)
  reconcile [--json]  per configured chain, every customer wallet and coin: the ledger balance against balanceOf on the
                      node, payouts and deposits in flight accounted for; --json prints one object
                      {"ok", "discrepancies": [{blockchain, address, partnerId, customerId, coin, ledger, chain, inFlight,
                      difference}], "checked", "errors"}; exit code 0 when ok, 1 when not (needs the database).
                      With a PSP configured (RAMP_PIX_PSP_URL), also the Pix it received and the payouts it made since
                      --since (default: 24 hours ago) against the books: each difference is a discrepancy
                      {rail: "PIX", kind, e2eid, txid?, idEnvio?, transactionId?, partnerId?, books, psp}, kind one of
                      PIX_MATCHES_NO_ONRAMP, PIX_NOT_RECORDED, PIX_AMOUNT_DIFFERS, PIX_MISSING_AT_PSP, PAYOUT_NOT_OURS,
                      PAYOUT_AMOUNT_DIFFERS, PAYOUT_STATUS_DIFFERS, PAYOUT_MISSING_AT_PSP; a PSP that did not answer is
                      an error {"psp", "error"}

Reads the server's environment. The treasury keys derive from RAMP_WALLET_SEED; unset (sandbox), the seed is read from the
database: on PostgreSQL at any time, on embedded PGlite only while no server has the data dir open (stop it, or set
RAMP_WALLET_SEED). The text output also lists the payouts in flight and what they wait for when the database is read.`;

function fail(message: string, code = 2): never {
  process.stderr.write(`ops: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false }, since: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (err) {
    fail(`${(err as Error).message}\n\n${USAGE}`);
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || parsed.values.help ? 0 : 2;
  }
  if (!['treasury', 'reconcile'].includes(command) || rest.length) fail(`unknown command: ${[command, ...rest].join(' ')}\n\n${USAGE}`);
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`invalid configuration: ${err.message.replaceAll('\n', '; ')}`, 78);
    throw err;
  }
  // The database only when it is needed (the seed) or safe to share and useful (PostgreSQL, for the text report).
  const needStore = command === 'reconcile' || !config.RAMP_WALLET_SEED || (Boolean(config.DATABASE_URL) && !parsed.values.json);
  let store: Store | undefined;
  try {
    if (needStore) {
      store = await openStore({ databaseUrl: config.DATABASE_URL, dataDir: config.RAMP_DATA_DIR, schema: config.DATABASE_SCHEMA, poolSize: 2, connectTimeoutMs: config.RAMP_DB_CONNECT_TIMEOUT_MS });
    }
    const seed = config.RAMP_WALLET_SEED ?? (store && (await getSetting(store.db, 'wallet_seed')));
    if (!seed) fail('no wallet seed: RAMP_WALLET_SEED is unset and the database has none yet (a sandbox server makes one at its first start)', 1);
    const chains = openChains(config, seed, (s) => evmChainClient({ rpcUrl: s.rpcUrl, timeoutMs: config.RAMP_CHAIN_RPC_TIMEOUT_MS, retryCount: 1 }));
    if (command === 'reconcile') {
      const since = parsed.values.since === undefined ? new Date(Date.now() - 86_400_000) : new Date(parsed.values.since);
      if (Number.isNaN(since.getTime())) fail(`--since: not a date-time: ${parsed.values.since}`);
      const result: Report = await reconcile(store!.db, chains);
      if (config.pix) {
        const psp = pixPsp(config.pix);
        try {
          const pix = await reconcilePix(store!.db, psp, { inicio: since, fim: new Date() });
          result.checked += pix.checked;
          result.discrepancies.push(...pix.discrepancies);
        } catch (err) {
          result.errors.push({ psp: psp.name, error: (err as Error).message.split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<psp>') });
        } finally {
          psp.close();
        }
        result.ok = result.discrepancies.length === 0 && result.errors.length === 0;
      }
      process.stdout.write(`${parsed.values.json ? JSON.stringify(result) : reconcileText(result)}\n`);
      return result.ok ? 0 : 1;
    }
    const report = await treasuryReport(chains);
    if (parsed.values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else if (chains.list().length === 0) process.stdout.write('No chain is configured (RAMP_CHAIN_RPC_<CHAIN>): every chain is simulated in sandbox.\n');
    else process.stdout.write(`${treasuryText(report, chains, store && (await chainWaits(store.db)))}\n`);
    return Object.values(report).some((r) => r.error) ? 1 : 0;
  } finally {
    await store?.close();
  }
}

/** The chains' report, with the PSP's discrepancies and errors beside theirs. */
type Report = Omit<ReconcileReport, 'discrepancies' | 'errors'> & {
  discrepancies: (ReconcileReport['discrepancies'][number] | PixDiscrepancy)[];
  errors: (ReconcileReport['errors'][number] | { psp: string; error: string })[];
};

function reconcileText(r: Report): string {
  const lines = [`${r.checked} wallet balances, received Pix and payouts compared: ${r.ok ? 'the books equal the chains and the PSP' : `${r.discrepancies.length} discrepancies`}`];
  for (const d of r.discrepancies) {
    if ('rail' in d) {
      lines.push(`  PIX ${d.kind} e2eid ${d.e2eid ?? '-'}${d.idEnvio ? ` idEnvio ${d.idEnvio}` : ''}${d.transactionId ? ` (transaction ${d.transactionId})` : ''}: books ${d.books ?? '-'}, PSP ${d.psp ?? '-'}`);
      continue;
    }
    lines.push(`  ${d.blockchain} ${d.address} ${d.coin} (customer ${d.customerId}): ledger ${d.ledger}, chain ${d.chain}, in flight ${d.inFlight}, unexplained ${d.difference}`);
  }
  for (const e of r.errors) lines.push('psp' in e ? `  PIX: not compared, the PSP did not answer: ${e.error}` : `  ${e.blockchain}: not compared, the node did not answer: ${e.error}`);
  return lines.join('\n');
}

main().then(
  (code) => process.exit(code),
  (err) => fail((err as Error).stack ?? String(err), 1),
);
