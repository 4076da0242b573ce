// The sentences of <ramp-quote>'s errors, refusals and lock, in the panel's language: an amount's error, why a lock is refused, a form-level alert, the lock made.
import type { Quote } from '../../contract/exchange-rates';
import type { I18nController } from '../../i18n';
import { formatAmount, formatForInput } from './amount';
import type { LockBlock } from './eligibility';
import { decimalsOf, type Currency, type Stablecoin, type TimeLock } from './model';
import type { AmountFieldError, QuoteAlert } from './problems';

/** What the render helpers need of the host's I18nController: its words and the language of this render. */
export type Words = Pick<I18nController, 't' | 'locale'>;

/** The message under the amount the user drives (`currency` is that amount's, `source` the one a minimum is written in). */
export function amountErrorText(w: Words, error: AmountFieldError, currency: Currency, source: Currency): string {
  switch (error.kind) {
    case 'tooSmall':
      return error.minimumSourceAmount
        ? w.t('quote.error.tooSmall', { minimum: formatAmount(error.minimumSourceAmount, source, w.locale) })
        : w.t('quote.error.tooSmall.noMinimum');
    case 'code':
      return w.t(error.key);
    case 'rule':
      switch (error.error) {
        case 'invalid':
          return w.t('quote.error.invalid', { example: formatForInput('1234.56', w.locale) });
        case 'tooManyDecimals':
          return w.t('quote.error.tooManyDecimals', { currency, decimals: decimalsOf(currency) });
        case 'zero':
          return w.t('quote.error.zero');
        case 'tooLarge':
          return w.t('quote.error.tooLarge');
      }
  }
}

/** Why the payment would refuse this lock, so the panel refuses it first. */
export function blockText(w: Words, block: LockBlock): string {
  const usd = (amount: string) => formatAmount(amount, 'USD', w.locale);
  switch (block.kind) {
    case 'notApproved':
      return w.t('quote.block.notApproved');
    case 'rejected':
      return w.t('quote.block.rejected');
    case 'single':
      return w.t('quote.block.single', { max: usd(block.max) });
    case 'daily':
      return w.t('quote.block.daily', { remaining: usd(block.remaining) });
    case 'monthly':
      return w.t('quote.block.monthly', { remaining: usd(block.remaining) });
    case 'balance':
      return w.t('quote.block.balance', { balance: formatAmount(block.balance, block.coin as Stablecoin, w.locale) });
  }
}

export function alertText(w: Words, alert: QuoteAlert): string {
  return alert.kind === 'OTHER'
      ? w.t('quote.alert.OTHER', { code: alert.code })
      : w.t(`quote.alert.${alert.kind}`);
}


/** Said when the lock is on: for how long, and what arrives. */
export function lockedText(w: Words, quote: Quote, lock: TimeLock): string {
  return w.t('quote.announce.locked', {
    duration: w.t(`quote.duration.${lock}`),
    amount: formatAmount(quote.finalTargetAmount, quote.targetCurrency, w.locale),
  });
}
