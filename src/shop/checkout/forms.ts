import { z } from 'zod';
import { addressFormat, provinceProblem } from '../../address-formats.js';
import type { CustomerAddressView } from '../../customers/index.js';
import { formInput, formWithIssues, type FormState } from '../../http/ui/forms.js';
import { zodIssues } from '../../http/validate.js';
import { IdString } from '../../ids.js';
import { ASSIGNED_COUNTRY_CODES, PostalAddress } from '../../postal-address.js';
import { CheckoutBody, type CheckoutDetails } from '../../storefront/index.js';

/**
 * The checkout's forms (docs/shop.md, Forms): what each step's form takes, and the countries the
 * address form offers.
 */

export const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });
/** Every officially assigned ISO 3166-1 alpha-2 country (src/postal-address.ts; not Intl's withdrawn codes such as DY, Benin again), by its English name. */
export const COUNTRIES: readonly { code: string; name: string }[] = [...ASSIGNED_COUNTRY_CODES]
  .map((code) => ({ code, name: COUNTRY_NAMES.of(code) ?? code }))
  .sort((x, y) => x.name.localeCompare(y.name));

const InformationForm = z.object({
  email: CheckoutBody.shape.email,
  first_name: z.string().trim().max(255).optional(),
  last_name: z.string().trim().min(1, 'is required').max(255),
  address1: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  address2: z.string().trim().max(255).optional(),
  city: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  province_code: z.string().trim().toUpperCase().max(3).optional(),
  zip: z.string().trim().max(32).optional(),
  country_code: z.string({ message: 'choose a country' }).trim().toUpperCase().length(2, 'choose a country'),
  phone: z.string().trim().max(32).optional(),
  /** A signed-in customer's "Save this address to my account" checkbox. */
  save_address: z.literal('on').optional(),
});

/** The fields of the information step, in the order the form shows them, with their labels. */
export const INFORMATION_LABELS = new Map([
  ['email', 'Email'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['address1', 'Address'],
  ['address2', 'Apartment, suite, etc.'],
  ['city', 'City'],
  ['province_code', 'State or province'],
  ['zip', 'Postal code'],
  ['country_code', 'Country'],
  ['phone', 'Phone'],
]);

/** The label of a field for the country (its format's names: State, Prefecture, County; ZIP code, PIN code). */
export function fieldLabel(name: string, countryCode: string | null): string {
  if (countryCode && name === 'province_code') return addressFormat(countryCode).province.label;
  if (countryCode && name === 'zip') return addressFormat(countryCode).zip.label;
  return INFORMATION_LABELS.get(name) ?? name;
}

/**
 * The information step's form: the contact and a postal address the orders domain takes, or the
 * form again with each issue at its field. The country's format rules (src/address-formats.ts):
 * the province one of its subdivisions, and given where its addresses require one; the postal
 * code where they require one. A country changed without JavaScript comes back with its provinces
 * to choose from.
 */
export function parseInformation(
  fields: ReadonlyMap<string, string>,
): { data: { email: string; address: PostalAddress; save: boolean }; form?: undefined } | { data?: undefined; form: FormState } {
  const parsed = InformationForm.safeParse(formInput(fields));
  const country = parsed.success ? parsed.data.country_code : (fields.get('country_code')?.trim().toUpperCase() ?? '');
  const issues = parsed.success ? [] : zodIssues(parsed.error);
  if (/^[A-Z]{2}$/.test(country)) {
    const format = addressFormat(country);
    // A country whose addresses name no province: one left from another country is dropped.
    const province = format.province.used ? fields.get('province_code')?.trim().toUpperCase() || null : null;
    const problem = provinceProblem(country, province, { requireIt: true });
    if (problem) issues.push({ path: 'province_code', message: problem });
    if (format.zip.required && !fields.get('zip')?.trim()) issues.push({ path: 'zip', message: 'is required' });
  }
  if (!parsed.success || issues.length > 0) return { form: formWithIssues(fields, issues) };
  const { email, save_address, ...rest } = parsed.data;
  if (!addressFormat(country).province.used) delete rest.province_code;
  const checked = PostalAddress.safeParse(rest);
  return checked.success ? { data: { email, address: checked.data, save: save_address === 'on' } } : { form: formWithIssues(fields, zodIssues(checked.error)) };
}

/** A saved address as the form's values (choosing one of the account's addresses fills the form with it). */
export function savedAddressValues(a: CustomerAddressView): [string, string][] {
  const entries: [string, string | null][] = [
    ['first_name', a.first_name],
    ['last_name', a.last_name],
    ['address1', a.address1],
    ['address2', a.address2],
    ['city', a.city],
    ['province_code', a.province_code],
    ['zip', a.zip],
    ['country_code', a.country_code],
    ['phone', a.phone],
  ];
  return entries.filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
}

/** The form's values from what this cart's checkout took before. */
export function detailsValues(details: CheckoutDetails | null): Map<string, string> {
  const a = details?.shipping_address;
  const entries: [string, string | null | undefined][] = [
    ['email', details?.email],
    ['first_name', a?.first_name],
    ['last_name', a?.last_name],
    ['address1', a?.address1],
    ['address2', a?.address2],
    ['city', a?.city],
    ['province_code', a?.province_code],
    ['zip', a?.zip],
    ['country_code', a?.country_code],
    ['phone', a?.phone],
  ];
  return new Map(entries.filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export const PlaceForm = z.object({
  checkout_key: z.string({ message: 'is missing: reload the page and place the order again' }).regex(/^[A-Za-z0-9_-]{43}$/, 'is not this page’s'),
  shipping_option: z.string().max(64).optional(),
  payment_provider: z.string().max(40).optional(),
});
export const OrderParams = z.object({ id: IdString('order') });
export const PayForm = z.object({ provider: z.literal('sandbox'), provider_order_id: z.string().min(1).max(200) });
/** The payment step's `provider` query parameter (the sandbox when absent or not a provider's name). */
export const PROVIDER = z.string().regex(/^[a-z_]{1,40}$/);
