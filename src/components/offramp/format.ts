// How a saved bank account reads in the picker: which rail, the identifier with all but its end hidden, the holder.
import type { BankAccount } from '../../contract/bank-accounts';

/** `•••• 3000`: enough for the owner to recognise the account, not enough for someone looking over their shoulder. */
export function maskTail(value: string, visible = 4): string {
  const compact = value.replace(/\s/g, '');
  if (compact.length <= visible) return compact;
  return `•••• ${compact.slice(-visible)}`;
}

/**
 * The identifier line: `CPF •••• 4725`, `Phone number •••• 4321`, `IBAN •••• 3000`, `•••• 6789 · DEUTDEFF`. E-mail keys
 * show as they are. `keyTypeName` gives a PIX key type its name for people ("Random key", not `EVP`); without it, the code.
 */
export function identifierText(account: Pick<BankAccount, 'rail' | 'identifier'>, keyTypeName: (keyType: string) => string = (k) => k): string {
  const id = account.identifier;
  switch (account.rail) {
    case 'PIX': {
      const keyType = id.keyType ? keyTypeName(id.keyType) : 'PIX';
      const value = id.keyValue ?? '';
      return `${keyType} ${id.keyType === 'EMAIL' ? value : maskTail(value)}`;
    }
    case 'SEPA':
      return `IBAN ${maskTail(id.iban ?? '')}`;
    case 'SWIFT':
      return [maskTail(id.accountNumber ?? ''), id.bic, id.bankName].filter(Boolean).join(' · ');
  }
}

/** The holder's name, person or company. */
export function holderName(account: Pick<BankAccount, 'holder'>): string {
  return account.holder.name ?? account.holder.legalName ?? '';
}
