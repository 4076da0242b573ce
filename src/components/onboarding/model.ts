// The onboarding form's data: view values as the user sees them, and the request body (model values) the API gets.
import type { CreateCustomerRequest } from '../../contract/customers';
import { normalizeTaxId } from '../../contract/tax-id';

export type CustomerType = CreateCustomerRequest['type'];
export const customerTypes: readonly CustomerType[] = ['INDIVIDUAL', 'BUSINESS'];

export type FieldName = 'name' | 'legalName' | 'taxId' | 'birthDate' | 'incorporationDate' | 'country' | 'email';

/** What the inputs hold. `taxId` is the view value (`123.456.789-09`); dates are `YYYY-MM-DD` as `<input type=date>` gives them. */
export interface FormValues {
  type: CustomerType;
  name: string;
  legalName: string;
  taxId: string;
  birthDate: string;
  incorporationDate: string;
  country: string;
  email: string;
}

/**
 * An individual starts with Brazil chosen (the country of the tax id: most people paying by PIX have a CPF, and the
 * label then says CPF); a business chooses its country of incorporation itself, since a wrong guess would mean a CNPJ.
 */
export function defaultCountry(type: CustomerType): string {
  return type === 'INDIVIDUAL' ? 'BRA' : '';
}

export function emptyForm(type: CustomerType = 'INDIVIDUAL'): FormValues {
  return { type, name: '', legalName: '', taxId: '', birthDate: '', incorporationDate: '', country: defaultCountry(type), email: '' };
}

/** The fields each customer type shows, in page order (the order focus goes to the first bad one). */
export function fieldsFor(type: CustomerType): readonly FieldName[] {
  return type === 'INDIVIDUAL'
    ? ['name', 'country', 'taxId', 'birthDate', 'email']
    : ['legalName', 'country', 'taxId', 'incorporationDate', 'email'];
}

export function isOptional(type: CustomerType, field: FieldName): boolean {
  return type === 'INDIVIDUAL' && field === 'email';
}

/** The tax id as the API gets it: letters and digits only, upper-cased (the server accepts punctuation too; this is the canonical form). */
export function taxIdModel(view: string): string {
  return normalizeTaxId(view);
}

/** The request body for `POST /customers`: trimmed, with empty optional fields left out. */
export function toRequest(values: FormValues): CreateCustomerRequest {
  const email = values.email.trim();
  if (values.type === 'INDIVIDUAL') {
    return {
      type: 'INDIVIDUAL',
      name: values.name.trim(),
      taxId: taxIdModel(values.taxId),
      birthDate: values.birthDate,
      country: values.country,
      ...(email ? { email } : {}),
    };
  }
  return {
    type: 'BUSINESS',
    legalName: values.legalName.trim(),
    taxId: taxIdModel(values.taxId),
    incorporationDate: values.incorporationDate,
    country: values.country,
    email,
  };
}
