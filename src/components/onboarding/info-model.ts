// The additional-information form: its fields per customer type, view values, checks that mirror the server, and the PATCH body.
import { fieldProblemKey, type FieldProblemKey } from '../../i18n/problem-words';
import type { Customer } from '../../contract/customers';
import type { AdditionalInformation } from '../../contract/kyc';
import { alpha3ToAlpha2, isAlpha3Country } from '../../contract/countries';
import type { FieldProblem } from '../../client/problem';
import type { Locale } from '../../i18n';
import { formatAmount, parseAmount } from './money';
import { fromE164, isE164Shape, toE164 } from './phone';

export type CustomerType = Customer['type'];
type ProfessionalSituation = Extract<AdditionalInformation, { type: 'INDIVIDUAL' }>['professionalSituation'];

export type TextField =
  | 'firstName'
  | 'middleName'
  | 'lastName'
  | 'phoneCountry'
  | 'phone'
  | 'address.country'
  | 'address.line1'
  | 'address.city'
  | 'address.state'
  | 'address.postalCode'
  | 'monthlyVolumeInUSD'
  | 'transactionVolumeInUSD'
  | 'annualRevenue'
  | 'monthlyTransactionVolume'
  | 'professionalSituation'
  | 'professionalOccupation'
  | 'sourceOfFunds'
  | 'companyType'
  | 'complianceAndAML'
  | 'regulatedActivityDetails'
  | 'website'
  | 'servicesProvided';
export type ListField = 'jurisdictions' | 'involvedActivities' | 'transactionCounterparties';
export type InfoField = TextField | ListField | 'isRegulatedActivity';

export const AMOUNT_FIELDS: readonly TextField[] = ['monthlyVolumeInUSD', 'transactionVolumeInUSD', 'annualRevenue', 'monthlyTransactionVolume'];
export const ADDRESS_FIELDS = ['address.country', 'address.line1', 'address.city', 'address.state', 'address.postalCode'] as const;

export interface InfoValues {
  type: CustomerType;
  text: Record<TextField, string>;
  lists: Record<ListField, string[]>;
  isRegulatedActivity: boolean;
}

// Option lists. The API takes any short code; these are the ones the UI offers (the spec's "values seen" and a few
// more), and a stored value outside them is still shown (see `optionsWith`).
export const JURISDICTIONS = ['BRA', 'USA', 'EU', 'GBR', 'ARG', 'MEX', 'OTHERS'] as const;
export const ACTIVITIES = ['NONE', 'GAMBLING', 'ADULT_ENTERTAINMENT', 'CRYPTO_ASSETS', 'WEAPONS'] as const;
export const COUNTERPARTIES = ['SELF', 'MERCHANTS_SUPPLIERS', 'CUSTOMERS', 'FAMILY_FRIENDS', 'EMPLOYEES'] as const;
export const PROFESSIONAL_SITUATIONS = ['EMPLOYEE', 'SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'OTHER'] as const;
export const INDIVIDUAL_SOURCES = ['EMPLOYMENT', 'SAVINGS', 'COMPANY', 'INVESTMENT', 'INHERITANCE', 'OTHER'] as const;
export const BUSINESS_SOURCES = ['COMPANY', 'COMPANY_CAPITAL', 'INVESTMENT', 'LOAN', 'OTHER'] as const;
export const COMPANY_TYPES = ['BLOCKCHAIN_SOFTWARE_COMPANY', 'PAYMENT_GATEWAY', 'E_COMMERCE', 'FINANCIAL_SERVICES', 'SOFTWARE_COMPANY', 'OTHER'] as const;

export const LIST_OPTIONS: Record<ListField, readonly string[]> = {
  jurisdictions: JURISDICTIONS,
  involvedActivities: ACTIVITIES,
  transactionCounterparties: COUNTERPARTIES,
};

/** The offered options plus any chosen value the list does not know, so nothing stored is silently dropped. */
export function optionsWith(options: readonly string[], chosen: readonly string[] | string): string[] {
  const extra = (typeof chosen === 'string' ? [chosen] : chosen).filter((v) => v && !options.includes(v));
  return [...options, ...extra];
}

/** The fields each type shows, in page order (focus goes to the first bad one). */
export function infoFieldsFor(type: CustomerType, isRegulatedActivity = false): readonly InfoField[] {
  const contact: InfoField[] = ['phone', ...ADDRESS_FIELDS];
  const profile: InfoField[] = ['monthlyVolumeInUSD', 'transactionVolumeInUSD', 'jurisdictions', 'involvedActivities', 'transactionCounterparties'];
  if (type === 'INDIVIDUAL') {
    return [
      'firstName',
      'middleName',
      'lastName',
      ...contact,
      'professionalSituation',
      'professionalOccupation',
      'sourceOfFunds',
      ...profile,
    ];
  }
  return [
    'companyType',
    'website',
    'servicesProvided',
    ...contact,
    'annualRevenue',
    'monthlyTransactionVolume',
    ...profile,
    'sourceOfFunds',
    'complianceAndAML',
    'isRegulatedActivity',
    ...(isRegulatedActivity ? (['regulatedActivityDetails'] as const) : []),
  ];
}

export function isOptionalInfo(field: InfoField): boolean {
  return field === 'middleName' || field === 'isRegulatedActivity';
}

const emptyText = (): Record<TextField, string> => ({
  firstName: '',
  middleName: '',
  lastName: '',
  phoneCountry: 'BR',
  phone: '',
  'address.country': '',
  'address.line1': '',
  'address.city': '',
  'address.state': '',
  'address.postalCode': '',
  monthlyVolumeInUSD: '',
  transactionVolumeInUSD: '',
  annualRevenue: '',
  monthlyTransactionVolume: '',
  professionalSituation: '',
  professionalOccupation: '',
  sourceOfFunds: '',
  companyType: '',
  complianceAndAML: '',
  regulatedActivityDetails: '',
  website: '',
  servicesProvided: '',
});

/**
 * The form's starting values: what was sent before (a correction after a rejection), else what the customer record
 * already says (the name split into first and last, the country for address and phone).
 */
export function initialInfo(customer: Pick<Customer, 'type' | 'name' | 'country' | 'additionalInformation'>, locale: Locale): InfoValues {
  const values: InfoValues = {
    type: customer.type,
    text: emptyText(),
    lists: { jurisdictions: [], involvedActivities: [], transactionCounterparties: [] },
    isRegulatedActivity: false,
  };
  const country = customer.country && isAlpha3Country(customer.country) ? customer.country : 'BRA';
  values.text['address.country'] = country;
  values.text.phoneCountry = alpha3ToAlpha2.get(country) ?? 'BR';
  if (customer.type === 'INDIVIDUAL' && customer.name) {
    const words = customer.name.trim().split(/\s+/);
    values.text.firstName = words[0] ?? '';
    values.text.lastName = words.length > 1 ? words.at(-1)! : '';
    values.text.middleName = words.slice(1, -1).join(' ');
  }
  const sent = customer.additionalInformation as Partial<Record<string, unknown>> | undefined;
  if (sent && sent.type === customer.type) fillFrom(values, sent, locale);
  return values;
}

function fillFrom(values: InfoValues, sent: Partial<Record<string, unknown>>, locale: Locale): void {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  for (const field of Object.keys(values.text) as TextField[]) {
    if (field.startsWith('address.') || field === 'phone' || field === 'phoneCountry') continue;
    if (typeof sent[field] === 'string') values.text[field] = AMOUNT_FIELDS.includes(field) ? formatAmount(sent[field], locale) : sent[field];
  }
  const address = sent.address as Partial<Record<string, unknown>> | undefined;
  if (address) for (const part of ['country', 'line1', 'city', 'state', 'postalCode'] as const) values.text[`address.${part}`] = str(address[part]);
  if (typeof sent.phone === 'string' && sent.phone) {
    const { country, national } = fromE164(sent.phone, values.text.phoneCountry);
    values.text.phoneCountry = country;
    values.text.phone = national;
  }
  for (const list of ['jurisdictions', 'involvedActivities', 'transactionCounterparties'] as const) {
    const v = sent[list];
    if (Array.isArray(v)) values.lists[list] = v.filter((x): x is string => typeof x === 'string');
  }
  if (typeof sent.isRegulatedActivity === 'boolean') values.isRegulatedActivity = sent.isRegulatedActivity;
}

/** `acme.com` → `https://acme.com`: people rarely type the scheme, and the API wants a full http(s) URL. */
export function websiteModel(view: string): string {
  const text = view.trim();
  if (!text) return '';
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
}

export type InfoError = 'required' | 'chooseOne' | 'invalidPhone' | 'invalidAmount' | 'invalidCountry' | 'invalidUrl';

/** Every client rule; the server applies the same (and more, e.g. whether the phone number exists). */
export function validateInfo(values: InfoValues, locale: Locale): Partial<Record<InfoField, InfoError>> {
  const errors: Partial<Record<InfoField, InfoError>> = {};
  for (const field of infoFieldsFor(values.type, values.isRegulatedActivity)) {
    if (isOptionalInfo(field)) continue;
    if (field === 'jurisdictions' || field === 'involvedActivities' || field === 'transactionCounterparties') {
      if (values.lists[field].length === 0) errors[field] = 'chooseOne';
      continue;
    }
    if (field === 'isRegulatedActivity') continue;
    const view = values.text[field].trim();
    if (!view) {
      errors[field] = 'required';
      continue;
    }
    if (field === 'phone' && !isE164Shape(toE164(values.text.phoneCountry, view))) errors.phone = 'invalidPhone';
    if (AMOUNT_FIELDS.includes(field) && parseAmount(view, locale) === undefined) errors[field] = 'invalidAmount';
    if (field === 'address.country' && !isAlpha3Country(view)) errors[field] = 'invalidCountry';
    if (field === 'website' && !isHttpUrl(websiteModel(view))) errors.website = 'invalidUrl';
  }
  return errors;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The PATCH body: model values only (E.164 phone, plain decimal strings, full URL), trimmed. */
export function toAdditionalInformation(values: InfoValues, locale: Locale): AdditionalInformation {
  const t = (field: TextField) => values.text[field].trim();
  const amount = (field: TextField) => parseAmount(t(field), locale) ?? t(field);
  const shared = {
    phone: toE164(values.text.phoneCountry, t('phone')),
    address: {
      country: t('address.country'),
      line1: t('address.line1'),
      city: t('address.city'),
      state: t('address.state'),
      postalCode: t('address.postalCode'),
    },
    monthlyVolumeInUSD: amount('monthlyVolumeInUSD'),
    transactionVolumeInUSD: amount('transactionVolumeInUSD'),
    jurisdictions: [...values.lists.jurisdictions],
    involvedActivities: [...values.lists.involvedActivities],
    transactionCounterparties: [...values.lists.transactionCounterparties],
  };
  if (values.type === 'INDIVIDUAL') {
    return {
      type: 'INDIVIDUAL',
      firstName: t('firstName'),
      middleName: t('middleName'),
      lastName: t('lastName'),
      ...shared,
      professionalSituation: t('professionalSituation') as ProfessionalSituation,
      professionalOccupation: t('professionalOccupation'),
      sourceOfFunds: t('sourceOfFunds'),
    };
  }
  return {
    type: 'BUSINESS',
    ...shared,
    companyType: t('companyType'),
    annualRevenue: amount('annualRevenue'),
    monthlyTransactionVolume: amount('monthlyTransactionVolume'),
    complianceAndAML: t('complianceAndAML'),
    isRegulatedActivity: values.isRegulatedActivity,
    regulatedActivityDetails: values.isRegulatedActivity ? t('regulatedActivityDetails') : '',
    website: websiteModel(t('website')),
    sourceOfFunds: t('sourceOfFunds'),
    servicesProvided: t('servicesProvided'),
  };
}

/** Ticking NONE clears the activities, ticking an activity clears NONE: "none" and "gambling" cannot both be true. */
export function toggleListValue(field: ListField, current: readonly string[], value: string, checked: boolean): string[] {
  if (!checked) return current.filter((v) => v !== value);
  if (field === 'involvedActivities') return value === 'NONE' ? ['NONE'] : [...current.filter((v) => v !== 'NONE'), value];
  return current.includes(value) ? [...current] : [...current, value];
}

/** A problem path (`address.country`, `/address/country`, `body.phone`, `jurisdictions[0]`) → the field it names. */
export function infoFieldFromPath(path: string, type: CustomerType): InfoField | undefined {
  const segments = path.split(/[./[\]]+/).filter((s) => s && !/^\d+$/.test(s));
  const shown = infoFieldsFor(type, true) as readonly string[];
  for (let i = 0; i < segments.length; i++) {
    const candidate = segments.slice(i).join('.');
    if (shown.includes(candidate)) return candidate as InfoField;
  }
  return undefined;
}

/** Splits a 400's `errors[]` into those that land on a field (first per field) and the rest. */
export function placeInfoProblems(
  errors: readonly FieldProblem[],
  type: CustomerType,
): { fields: Partial<Record<InfoField, FieldProblemKey>>; unplaced: FieldProblem[] } {
  const fields: Partial<Record<InfoField, FieldProblemKey>> = {};
  const unplaced: FieldProblem[] = [];
  for (const problem of errors) {
    const field = infoFieldFromPath(problem.path, type);
    if (!field) unplaced.push(problem);
    else fields[field] ??= fieldProblemKey(problem.code);
  }
  return { fields, unplaced };
}

/** The DOM id of a field: dots are awkward in CSS selectors. */
export const infoId = (field: InfoField): string => `info-${field.replace('.', '-')}`;
