import { z } from 'zod';
import { PageQuery } from '../pagination.js';
import { updateBody } from '../http/validate.js';
import { IdString } from '../ids.js';
import { AssignedCountryCode } from '../postal-address.js';

/** As src/auth/schemas.ts Email: trimmed, NFC-normalised and lower-cased before it is checked. */
export const CustomerEmail = z
  .string()
  .trim()
  .max(254)
  .transform((s) => s.normalize('NFC').toLowerCase())
  .pipe(z.email({ message: 'must be an email address' }));

/** A required text field: trimmed, 1..max characters. */
const Text = (max: number) => z.string().trim().min(1).max(max);
/** An optional text field: trimmed; an empty string means "none" and is stored as null. */
const OptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((s) => (s === '' ? null : s));

const Phone = z
  .string()
  .trim()
  .max(32)
  .refine(
    (p) => p === '' || (/^\+?[0-9 ().-]+$/.test(p) && /^(\D*\d){3,20}\D*$/.test(p)),
    'must be a phone number: digits, spaces, ( ) . - and an optional leading +, 3 to 20 digits',
  )
  .nullable()
  .transform((s) => (s === '' ? null : s));

const Tags = z
  .array(z.string().trim().min(1).max(40))
  .max(50)
  .transform((tags) => [...new Set(tags)]);

const CustomerFields = {
  first_name: OptionalText(100),
  last_name: OptionalText(100),
  phone: Phone,
  accepts_marketing: z.boolean(),
  tags: Tags,
  note: OptionalText(5000),
};

export const CreateCustomerBody = z.strictObject({
  email: CustomerEmail,
  first_name: CustomerFields.first_name.optional(),
  last_name: CustomerFields.last_name.optional(),
  phone: CustomerFields.phone.optional(),
  accepts_marketing: CustomerFields.accepts_marketing.default(false),
  tags: CustomerFields.tags.default([]),
  note: CustomerFields.note.optional(),
});
export type CreateCustomerBody = z.infer<typeof CreateCustomerBody>;

export const UpdateCustomerBody = updateBody({ email: CustomerEmail, ...CustomerFields });
export type UpdateCustomerBody = z.infer<typeof UpdateCustomerBody>;

export const ListCustomersQuery = PageQuery.extend({
  query: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .transform((q) => q.normalize('NFC').toLowerCase())
    .optional(),
}).strict();
export type ListCustomersQuery = z.infer<typeof ListCustomersQuery>;

const AddressFields = {
  first_name: OptionalText(100),
  last_name: OptionalText(100),
  company: OptionalText(255),
  address1: Text(255),
  address2: OptionalText(255),
  city: Text(100),
  province: OptionalText(100),
  province_code: OptionalText(10),
  country_code: AssignedCountryCode,
  zip: OptionalText(20),
  phone: Phone,
};

export const CreateAddressBody = z.strictObject({
  first_name: AddressFields.first_name.optional(),
  last_name: AddressFields.last_name.optional(),
  company: AddressFields.company.optional(),
  address1: AddressFields.address1,
  address2: AddressFields.address2.optional(),
  city: AddressFields.city,
  province: AddressFields.province.optional(),
  province_code: AddressFields.province_code.optional(),
  country_code: AddressFields.country_code,
  zip: AddressFields.zip.optional(),
  phone: AddressFields.phone.optional(),
});
export type CreateAddressBody = z.infer<typeof CreateAddressBody>;

export const UpdateAddressBody = updateBody(AddressFields);
export type UpdateAddressBody = z.infer<typeof UpdateAddressBody>;

/** The orders domain's report of one order step (an order, a payment, a refund) for recordCustomerOrder. */
export const CustomerOrderRecord = z.strictObject({
  key: z.string().min(1).max(200),
  amount: z.number().int().refine(Number.isSafeInteger, 'must be a safe integer'),
  countDelta: z.union([z.literal(0), z.literal(1)]),
});
export type CustomerOrderRecord = z.infer<typeof CustomerOrderRecord>;

/** As merchant passwords (src/auth/schemas.ts): 10..200 characters to set, any length up to 200 to check. */
export const CUSTOMER_PASSWORD_MIN = 10;
export const CUSTOMER_PASSWORD_MAX = 200;
const NewPassword = z
  .string()
  .min(CUSTOMER_PASSWORD_MIN, `must be at least ${CUSTOMER_PASSWORD_MIN} characters`)
  .max(CUSTOMER_PASSWORD_MAX, `must be at most ${CUSTOMER_PASSWORD_MAX} characters`);
const GivenPassword = z.string().min(1).max(CUSTOMER_PASSWORD_MAX);

/** The store's subdomain as a shopper's client sends it: checked by lookup, not by the sign-up rules of new stores. */
const StoreSubdomain = z.string().trim().toLowerCase().min(1).max(63);

export const CustomerSignUpBody = z.strictObject({
  subdomain: StoreSubdomain,
  email: CustomerEmail,
  password: NewPassword,
  first_name: OptionalText(100).optional(),
  last_name: OptionalText(100).optional(),
});
export type CustomerSignUpBody = z.infer<typeof CustomerSignUpBody>;

export const CustomerLoginBody = z.strictObject({ subdomain: StoreSubdomain, email: CustomerEmail, password: GivenPassword });
export const CustomerResetBody = z.strictObject({ subdomain: StoreSubdomain, email: CustomerEmail });
export const CustomerPasswordUpdateBody = z
  .strictObject({
    reset_token: z.string().min(1).max(200).optional(),
    current_password: GivenPassword.optional(),
    new_password: NewPassword,
  })
  .refine((b) => (b.reset_token === undefined) !== (b.current_password === undefined), { message: 'give exactly one of reset_token or current_password' });

/** The activation token from the message, and the account's password (set here, never the sign-up's). */
export const CustomerActivateBody = z.strictObject({ token: z.string().min(1).max(200), password: NewPassword });

export const AddWishlistItemBody = z.strictObject({ product_id: IdString('product'), variant_id: IdString('variant').optional() });
export type AddWishlistItemBody = z.infer<typeof AddWishlistItemBody>;

/** A customer's own address change: its fields, and/or `default: true` to make it the default. */
export const OwnAddressChangeBody = z.strictObject({ ...UpdateAddressBody.shape, default: z.literal(true).optional() });
export type OwnAddressChangeBody = z.infer<typeof OwnAddressChangeBody>;
