import { z } from 'zod';
import { formInput, formWithIssues, type FormState } from '../../http/ui/forms.js';
import { zodIssues } from '../../http/validate.js';
import { IdString } from '../../ids.js';
import { PostalAddress } from '../../postal-address.js';
import { CheckoutBody, type CheckoutDetails } from '../../storefront/index.js';

/**
 * The checkout's forms (docs/shop.md, Forms): what each step's form takes, and the countries the
 * address form offers.
 */

export const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });
/** Every ISO 3166-1 alpha-2 region Intl names, by name (not the groupings such as EU or UN). */
export const COUNTRIES: readonly { code: string; name: string }[] = (() => {
  const out: { code: string; name: string }[] = [];
  const skip = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'AA', 'QM', 'XK']);
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (skip.has(code) || code.startsWith('X') || code.startsWith('Q')) continue;
      const name = COUNTRY_NAMES.of(code);
      if (name && name !== code) out.push({ code, name });
    }
  return out.sort((x, y) => x.name.localeCompare(y.name));
})();

const InformationForm = z.object({
  email: CheckoutBody.shape.email,
  first_name: z.string().trim().max(255).optional(),
  last_name: z.string().trim().min(1, 'is required').max(255),
  address1: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  address2: z.string().trim().max(255).optional(),
  city: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  province_code: z.string().trim().toUpperCase().max(3).optional(),
  zip: z.string().trim().max(32).optional(),
  country_code: z.string({ message: 'is required' }).trim().toUpperCase().length(2, 'choose a country'),
  phone: z.string().trim().max(32).optional(),
});

/** The fields of the information step, in the order the form shows them, with their labels. */
export const INFORMATION_LABELS = new Map([
  ['email', 'Email'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['address1', 'Address'],
  ['address2', 'Apartment, suite, etc.'],
  ['city', 'City'],
  ['province_code', 'State or province code'],
  ['zip', 'Postal code'],
  ['country_code', 'Country'],
  ['phone', 'Phone'],
]);

/** The information step's form: the contact and a postal address the orders domain takes, or the form again with each issue at its field. */
export function parseInformation(
  fields: ReadonlyMap<string, string>,
): { data: { email: string; address: PostalAddress }; form?: undefined } | { data?: undefined; form: FormState } {
  const parsed = InformationForm.safeParse(formInput(fields));
  if (!parsed.success) return { form: formWithIssues(fields, zodIssues(parsed.error)) };
  const { email, ...rest } = parsed.data;
  const checked = PostalAddress.safeParse(rest);
  return checked.success ? { data: { email, address: checked.data } } : { form: formWithIssues(fields, zodIssues(checked.error)) };
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
