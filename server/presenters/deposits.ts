// A credited deposit as its event shows it (the `deposit.confirmed` webhook's `data`).
import type { Deposit } from '../../src/contract/deposits';
import { transactionExplorerUrl } from '../domain/wallets';
import type { ChainDepositRow } from '../store/queries/chain-deposits';

export function presentDeposit(row: ChainDepositRow, sandbox: boolean): Deposit {
  return {
    id: row.id,
    customerId: row.customerId,
    blockchain: row.blockchain,
    stablecoin: row.asset as Deposit['stablecoin'],
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
