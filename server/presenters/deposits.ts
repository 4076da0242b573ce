// A credited deposit as its event shows it (the `deposit.confirmed` webhook's `data`).
import { transactionExplorerUrl } from '../domain/wallets';
import type { ChainDepositRow } from '../store/queries/chain-deposits';

export function presentDeposit(row: ChainDepositRow, sandbox: boolean) {
  return {
    id: row.id,
    customerId: row.customerId,
    blockchain: row.blockchain,
    stablecoin: row.asset,
    amount: row.value,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
    blockNumber: row.blockNumber.toString(),
    blockExplorerUrl: transactionExplorerUrl(row.blockchain, row.transactionHash, sandbox),
    createdAt: row.createdAt.toISOString(),
  };
}
