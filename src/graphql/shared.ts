import { decimalAmount } from '../money.js';
import type { PostalAddress } from '../postal-address.js';
import { connectionTypeDefs } from './connections.js';
import { toGlobalId } from './ids.js';

/** MailingAddress's fields; the admin's MailingAddressInput takes them but the id and the province's name (admin/orders.ts). */
export const mailingAddressFields = `
    id: ID
    firstName: String
    lastName: String
    company: String
    address1: String!
    address2: String
    city: String!
    province: String
    provinceCode: String
    countryCode: String!
    zip: String
    phone: String
`;

/** What both schemas' Product tells of a product, in the order both list it. */
export const productDescriptionFields = `
    title: String!
    handle: String!
    descriptionHtml: String!
    vendor: String
    productType: String
    tags: [String!]!
`;

/**
 * The types both schemas have, once (docs/graphql.md, Conventions): the output scalars, `Node`,
 * connections' `PageInfo`, money, a product's options and price range, and postal addresses. Each
 * schema's own types are in its domains' files (admin/, storefront/). The admin documents these
 * types in its root SDL (admin/schema.ts); the storefront shows them bare.
 */
export const sharedTypeDefs = /* GraphQL */ `
  scalar DateTime
  scalar Decimal

  interface Node {
    id: ID!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type MoneyV2 {
    amount: Decimal!
    currencyCode: String!
    minorUnits: Int!
  }

  type ProductOption {
    name: String!
    values: [String!]!
  }

  type SelectedOption {
    name: String!
    value: String!
  }

  type ProductPriceRange {
    minVariantPrice: MoneyV2!
    maxVariantPrice: MoneyV2!
  }

  type MailingAddress {${mailingAddressFields}}
  ${connectionTypeDefs('MailingAddress')}
`;

/** A member of `Node` is answered tagged with its type (`node(id:)` tags what it loads). */
export const nodeResolvers = { Node: { __resolveType: <T extends string>(value: { __typename: T }) => value.__typename } };

/** Minor units as MoneyV2 (docs/graphql.md, Money). */
export const money = (minor: number, currency: string) => ({ amount: decimalAmount(minor, currency), currencyCode: currency, minorUnits: minor });
export const moneyOrNull = (minor: number | null, currency: string) => (minor === null ? null : money(minor, currency));

/** REST's lowercase enum values as GraphQL's (`partially_refunded` → `PARTIALLY_REFUNDED`). */
export const enumValue = <T extends string>(value: T) => value.toUpperCase() as Uppercase<T>;

/** A product's cheapest and dearest variant prices. */
export const priceRange = (p: { price_min: number; price_max: number; currency: string }) => ({
  minVariantPrice: money(p.price_min, p.currency),
  maxVariantPrice: money(p.price_max, p.currency),
});

/** A variant's value of each of its product's options. */
export const selectedOptions = (options: readonly { name: string }[], values: readonly string[]) =>
  options.map((o, i) => ({ name: o.name, value: values[i] ?? '' }));

/** An order's number as the merchant and the customer see it: #1001. */
export const orderName = (number: number) => `#${number}`;

/** A customer's saved address (its id) or an order's (no id) as MailingAddress. */
export const mailingAddress = (a: PostalAddress & { id?: string; province?: string | null }) => ({
  id: a.id ? toGlobalId('MailingAddress', a.id) : null,
  firstName: a.first_name,
  lastName: a.last_name,
  company: a.company,
  address1: a.address1,
  address2: a.address2,
  city: a.city,
  province: a.province ?? null,
  provinceCode: a.province_code,
  countryCode: a.country_code,
  zip: a.zip,
  phone: a.phone,
});
