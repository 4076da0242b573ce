// `ops treasury`: per configured chain, the treasury's address and its native, USDC and USDT balances read from the node.
import { fromBaseUnits } from '../domain/chain/amounts';
import type { Hex } from '../domain/chain/chain-client';
import { treasuryDerivationPath } from '../domain/chain/treasury';
import type { Stablecoin } from '../domain/money';
import type { Chains } from '../flows/chain/chains';
import type { ChainWaitSummary } from '../store/queries/chain-transfers';

/** One chain's line of `--json`: decimal strings; a coin appears only when configured; `error` when the node did not answer. */
export type TreasuryReport = Record<string, { address: string; native?: string; USDC?: string; USDT?: string; error?: string }>;

/** The native coin of ETHEREUM, BASE (ETH) and POLYGON (POL) has 18 decimals. */
const NATIVE_DECIMALS = 18;

export async function treasuryReport(chains: Chains): Promise<TreasuryReport> {
  const entries = await Promise.all(
    chains.list().map(async (c) => {
      const address = c.treasury.address;
      try {
        const coins = Object.entries(c.settings.tokens) as [Stablecoin, Hex][];
        const [native, ...balances] = await Promise.all([
          c.client.nativeBalance(address),
          ...coins.map(async ([coin, token]) => fromBaseUnits(await c.client.tokenBalance(token, address), await c.decimals(coin))),
        ]);
        const line: TreasuryReport[string] = { address, native: fromBaseUnits(native as bigint, NATIVE_DECIMALS) };
        coins.forEach(([coin], i) => (line[coin] = balances[i] as string));
        return [c.settings.blockchain, line] as const;
      } catch (err) {
        return [c.settings.blockchain, { address, error: (err as Error).message.split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<rpc>') }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** The report for people: one block per chain, with the payouts that wait and why when the database was read. */
export function treasuryText(report: TreasuryReport, chains: Chains, waits: ChainWaitSummary[] | undefined): string {
  const lines: string[] = [];
  for (const c of chains.list()) {
    const r = report[c.settings.blockchain]!;
    lines.push(`${c.settings.blockchain}  treasury ${r.address}  (${treasuryDerivationPath(c.settings.blockchain)}, ${c.settings.confirmations} confirmations)`);
    if (r.error) lines.push(`  node unavailable: ${r.error}`);
    else {
      lines.push(`  native  ${r.native}`);
      for (const coin of ['USDC', 'USDT'] as const) lines.push(`  ${coin}    ${r[coin] ?? '— (no token configured)'}`);
    }
    const w = waits?.find((x) => x.blockchain === c.settings.blockchain);
    const inFlight = Object.entries(w?.open ?? {}).map(([s, n]) => `${n} ${s}`);
    if (inFlight.length) lines.push(`  payouts in flight: ${inFlight.join(', ')}`);
    for (const x of w?.waiting ?? []) lines.push(`  waiting (${x.count}): ${x.reason}${x.detail ? ` — ${x.detail}` : ''}`);
  }
  if (!waits) lines.push('(payouts in flight not shown: the database was not opened; see `ops --help`)');
  return lines.join('\n');
}
