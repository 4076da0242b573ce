// The words of the additional-information step: each field's label and hint, each option's name, each rule's message.
import { alpha3ToAlpha2 } from '../../contract/countries';
import { regionName } from '../../i18n';
import { humanize, type PlainMessageKey } from '../kyc-labels';
import type { CustomerType, InfoError, InfoField, TextField } from './info-model';
import { formatAmount } from './money';
import type { StepContext } from './step-context';

const optionKeys: Readonly<Record<string, PlainMessageKey>> = {
  EU: 'info.option.EU',
  OTHERS: 'info.option.OTHERS',
  NONE: 'info.option.NONE',
  GAMBLING: 'info.option.GAMBLING',
  ADULT_ENTERTAINMENT: 'info.option.ADULT_ENTERTAINMENT',
  CRYPTO_ASSETS: 'info.option.CRYPTO_ASSETS',
  WEAPONS: 'info.option.WEAPONS',
  SELF: 'info.option.SELF',
  MERCHANTS_SUPPLIERS: 'info.option.MERCHANTS_SUPPLIERS',
  CUSTOMERS: 'info.option.CUSTOMERS',
  FAMILY_FRIENDS: 'info.option.FAMILY_FRIENDS',
  EMPLOYEES: 'info.option.EMPLOYEES',
  EMPLOYEE: 'info.option.EMPLOYEE',
  SELF_EMPLOYED: 'info.option.SELF_EMPLOYED',
  UNEMPLOYED: 'info.option.UNEMPLOYED',
  RETIRED: 'info.option.RETIRED',
  OTHER: 'info.option.OTHER',
  EMPLOYMENT: 'info.option.EMPLOYMENT',
  SAVINGS: 'info.option.SAVINGS',
  COMPANY: 'info.option.COMPANY',
  INVESTMENT: 'info.option.INVESTMENT',
  INHERITANCE: 'info.option.INHERITANCE',
  COMPANY_CAPITAL: 'info.option.COMPANY_CAPITAL',
  LOAN: 'info.option.LOAN',
  BLOCKCHAIN_SOFTWARE_COMPANY: 'info.option.BLOCKCHAIN_SOFTWARE_COMPANY',
  PAYMENT_GATEWAY: 'info.option.PAYMENT_GATEWAY',
  E_COMMERCE: 'info.option.E_COMMERCE',
  FINANCIAL_SERVICES: 'info.option.FINANCIAL_SERVICES',
  SOFTWARE_COMPANY: 'info.option.SOFTWARE_COMPANY',
};

const labelKeys: Readonly<Record<InfoField, PlainMessageKey>> = {
  firstName: 'info.firstName',
  middleName: 'info.middleName',
  lastName: 'info.lastName',
  phoneCountry: 'info.phoneCountry',
  phone: 'info.phone',
  'address.country': 'info.address.country',
  'address.line1': 'info.address.line1',
  'address.city': 'info.address.city',
  'address.state': 'info.address.state',
  'address.postalCode': 'info.address.postalCode',
  monthlyVolumeInUSD: 'info.monthlyVolumeInUSD',
  transactionVolumeInUSD: 'info.transactionVolumeInUSD',
  annualRevenue: 'info.annualRevenue',
  monthlyTransactionVolume: 'info.monthlyTransactionVolume',
  professionalSituation: 'info.professionalSituation',
  professionalOccupation: 'info.professionalOccupation',
  sourceOfFunds: 'info.sourceOfFunds',
  companyType: 'info.companyType',
  complianceAndAML: 'info.complianceAndAML',
  regulatedActivityDetails: 'info.regulatedActivityDetails',
  website: 'info.website',
  servicesProvided: 'info.servicesProvided',
  jurisdictions: 'info.jurisdictions',
  involvedActivities: 'info.involvedActivities',
  transactionCounterparties: 'info.transactionCounterparties',
  isRegulatedActivity: 'info.isRegulatedActivity',
};

export const autocomplete: Partial<Record<TextField, string>> = {
  firstName: 'given-name',
  middleName: 'additional-name',
  lastName: 'family-name',
  phone: 'tel-national',
  website: 'url',
  professionalOccupation: 'organization-title',
};

// A business's amounts sit in one group whose legend gives the currency: their labels say what each one counts.
const businessLabelKeys: Partial<Record<InfoField, PlainMessageKey>> = {
  annualRevenue: 'info.business.annualRevenue',
  monthlyTransactionVolume: 'info.business.monthlyTransactionVolume',
  monthlyVolumeInUSD: 'info.business.monthlyVolumeInUSD',
  transactionVolumeInUSD: 'info.business.transactionVolumeInUSD',
};

export function infoLabel(ctx: StepContext, field: InfoField, type: CustomerType = 'INDIVIDUAL'): string {
  return ctx.t((type === 'BUSINESS' && businessLabelKeys[field]) || labelKeys[field]);
}

/** An option's name: ours, else a country's in the reader's language, else the code made readable. */
export function optionLabel(ctx: StepContext, code: string): string {
  const key = optionKeys[code];
  if (key) return ctx.t(key);
  const alpha2 = alpha3ToAlpha2.get(code);
  return alpha2 ? regionName(alpha2, ctx.locale) : humanize(code);
}

export function infoHint(ctx: StepContext, field: InfoField): string | undefined {
  switch (field) {
    case 'website':
      return ctx.t('info.website.hint');
    case 'complianceAndAML':
      return ctx.t('info.complianceAndAML.hint');
    case 'professionalOccupation':
      return ctx.t('info.professionalOccupation.hint');
    default:
      return undefined;
  }
}

const isChoice = (field: InfoField): boolean => ['address.country', 'professionalSituation', 'sourceOfFunds', 'companyType'].includes(field);

export function infoErrorText(ctx: StepContext, field: InfoField, error: InfoError): string {
  switch (error) {
    case 'required':
      return isChoice(field) ? ctx.t('info.error.chooseOption') : ctx.t('error.required');
    case 'chooseOne':
      return ctx.t('info.error.chooseOne');
    case 'invalidPhone':
      return ctx.t('info.error.invalidPhone');
    case 'invalidAmount':
      return ctx.t('info.error.invalidAmount', { example: formatAmount('2500.00', ctx.locale) });
    case 'invalidCountry':
      return ctx.t('error.invalidCountry');
    case 'invalidUrl':
      return ctx.t('info.error.invalidUrl');
  }
}
