import { pick, stamps } from '../allow-list.js';
import { NEVER, type Sources } from '../projection.js';
import type { ObjectId } from 'mongodb';
import type { AddressFields, CustomerAddressDocument, CustomerDocument, WishlistItemDocument } from './models.js';

export const presentCustomer = (c: CustomerDocument) => ({
  id: c._id.toHexString(),
  email: c.email,
  first_name: c.first_name,
  last_name: c.last_name,
  phone: c.phone,
  accepts_marketing: c.accepts_marketing,
  tags: c.tags,
  note: c.note,
  orders_count: c.orders_count,
  total_spent: c.total_spent,
  currency: c.currency,
  default_address_id: c.default_address_id?.toHexString() ?? null,
  ...stamps(c),
});
export type CustomerView = ReturnType<typeof presentCustomer>;

/** What each field of a customer's view is presented from, and what a customer read in part lacks (src/projection.ts). */
export const CUSTOMER_SOURCES: Sources<CustomerView, CustomerDocument> = {
  id: [],
  email: ['email'],
  first_name: ['first_name'],
  last_name: ['last_name'],
  phone: ['phone'],
  accepts_marketing: ['accepts_marketing'],
  tags: ['tags'],
  note: ['note'],
  orders_count: ['orders_count'],
  total_spent: ['total_spent'],
  currency: ['currency'],
  default_address_id: ['default_address_id'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
};
export const UNREAD_CUSTOMER: Partial<CustomerDocument> = { created_at: NEVER, updated_at: NEVER };

export type CustomerAddressView = AddressFields & {
  id: string;
  customer_id: string;
  default: boolean;
  created_at: string;
  updated_at: string;
};

/** `defaultId` is the customer's default_address_id at the time of reading. */
export const presentAddress = (a: CustomerAddressDocument, defaultId: ObjectId | null): CustomerAddressView => ({
  id: a._id.toHexString(),
  customer_id: a.customer_id.toHexString(),
  first_name: a.first_name,
  last_name: a.last_name,
  company: a.company,
  address1: a.address1,
  address2: a.address2,
  city: a.city,
  province: a.province,
  province_code: a.province_code,
  country_code: a.country_code,
  zip: a.zip,
  phone: a.phone,
  default: defaultId !== null && defaultId.equals(a._id),
  ...stamps(a),
});

/**
 * The customer as they see themselves on the storefront: what they gave and what is theirs,
 * never the merchant's tags, note or spending figures.
 */
const ACCOUNT_FIELDS = ['id', 'email', 'first_name', 'last_name', 'phone', 'accepts_marketing', 'default_address_id', 'created_at'] as const;
export type AccountView = Pick<CustomerView, (typeof ACCOUNT_FIELDS)[number]>;

export const presentAccount = (c: CustomerDocument): AccountView => pick(presentCustomer(c), ACCOUNT_FIELDS);

export type WishlistItemView = { id: string; product_id: string; variant_id: string | null; created_at: string };

export const presentWishlistItem = (w: WishlistItemDocument): WishlistItemView => ({
  id: w._id.toHexString(),
  product_id: w.product_id.toHexString(),
  variant_id: w.variant_id?.toHexString() ?? null,
  created_at: w.created_at.toISOString(),
});
