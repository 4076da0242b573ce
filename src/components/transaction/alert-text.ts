// The sentence for each transaction alert, in the component's language; limit amounts are USD-equivalent and formatted as such.
import { blockchainName } from '../../contract/blockchains';
import { formatMoney, type I18nController } from '../../i18n';
import { limitNameKey } from './labels';
import type { TransactionAlert } from './problems';

const isDecimal = (value: string | undefined): value is `${number}` => value !== undefined && /^\d+(\.\d+)?$/.test(value);

export function alertText(alert: TransactionAlert, i18n: I18nController): string {
  const usd = (amount: `${number}`) => formatMoney(amount, 'USD', i18n.locale);
  switch (alert.kind) {
    case 'requote':
      return i18n.t(alert.code === 'RATE_EXPIRED' ? 'tx.alert.RATE_EXPIRED' : 'tx.alert.RATE_ALREADY_USED');
    case 'limit': {
      const name = limitNameKey(alert.limit);
      if (alert.limit === 'single' && isDecimal(alert.max)) return i18n.t('tx.alert.limit.single', { max: usd(alert.max) });
      if (name && isDecimal(alert.max) && isDecimal(alert.remaining)) {
        return i18n.t('tx.alert.limit.period', { limit: i18n.t(name), max: usd(alert.max), remaining: usd(alert.remaining) });
      }
      return i18n.t('tx.alert.limit.unknown');
    }
    case 'balance':
      return alert.asset && alert.blockchain
        ? i18n.t('tx.alert.balance', { asset: alert.asset, blockchain: blockchainName(alert.blockchain) })
        : i18n.t('tx.alert.balance.unknown');
    case 'notApproved':
      return i18n.t('tx.alert.notApproved');
    case 'session':
      return i18n.t('tx.alert.session');
    case 'forbidden':
      return i18n.t('tx.alert.forbidden');
    case 'notFound':
      return i18n.t('tx.alert.notFound');
    case 'network':
      return i18n.t('tx.alert.network');
    case 'validation':
      return i18n.t('tx.alert.validation');
    case 'other':
      return i18n.t('tx.alert.other', { code: alert.code });
  }
}
