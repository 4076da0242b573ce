// Wallet rows: provisioned once per customer and chain, read with the customer.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { type Blockchain, canonicalAddress, type Wallet } from '../../domain/wallets';
import { newId } from '../../ids';
import type { Db } from '../db';
import { wallets } from '../schema/index';

export type WalletRow = typeof wallets.$inferSelect;

export async function insertWallets(tx: Db, partnerId: string, customerId: string, list: Wallet[], at: Date): Promise<void> {
  await tx
    .insert(wallets)
    .values(list.map((w) => ({ id: newId(), partnerId, customerId, blockchain: w.blockchain, address: w.address, isDefault: w.isDefault, createdAt: at })))
    .onConflictDoNothing({ target: [wallets.customerId, wallets.blockchain] });
}

export function walletsOf(db: Db, partnerId: string, customerIds: string[]): Promise<WalletRow[]> {
  if (customerIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(wallets)
    .where(and(eq(wallets.partnerId, partnerId), inArray(wallets.customerId, customerIds)))
    .orderBy(asc(wallets.blockchain));
}

/**
 * Whose wallet `address` is on `blockchain`, across every partner (addresses come from one seed, so one address is one
 * wallet). Undefined for an address we did not issue. The caller decides what the owner may learn.
 */
export async function walletOwner(db: Db, blockchain: Blockchain, address: string): Promise<{ partnerId: string; customerId: string } | undefined> {
  const [row] = await walletsAt(db, blockchain, [canonicalAddress(blockchain, address)]);
  return row && { partnerId: row.partnerId, customerId: row.customerId };
}

/** The wallets among `addresses` (as stored: EIP-55 on EVM chains) on `blockchain`, across partners: one seed issues every address. */
export async function walletsAt(db: Db, blockchain: Blockchain, addresses: string[]): Promise<{ partnerId: string; customerId: string; address: string }[]> {
  if (addresses.length === 0) return [];
  return db
    .select({ partnerId: wallets.partnerId, customerId: wallets.customerId, address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.blockchain, blockchain), inArray(wallets.address, addresses)));
}
