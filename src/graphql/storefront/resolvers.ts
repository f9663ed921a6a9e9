import { ObjectId } from 'mongodb';
import { findCollectionByHandle } from '../../catalog/index.js';
import { addressesOfCustomers, getAccount, type AccountView } from '../../customers/index.js';
import { listCustomerOrders, type CustomerOrderView } from '../../orders/index.js';
import type { Platform } from '../../platform.js';
import type { PostalAddress } from '../../postal-address.js';
import {
  getPublicProduct,
  listPublicCollections,
  listPublicProducts,
  loadPricedCart,
  presentCart,
  type CartView,
  type PublicProductView,
} from '../../storefront/index.js';
import type { StoreView } from '../../stores/index.js';
import { arrayConnection, cursorId, pagedConnection, type ConnectionArgs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { enumValue, money, type Resolvers } from '../schema.js';

/** What each storefront resolver gets: the store, the cart token and the signed-in customer, if any. */
export type StorefrontContext = { platform: Platform; store: StoreView; cartToken: string | null; customerId: string | null };

type PublicVariant = PublicProductView['variants'][number] & { options: PublicProductView['options'] };
type PublicCollection = { id: string; title: string; handle: string; description_html: string };

const idCursorOf = (cursor: string | undefined) => (cursor ? new ObjectId(cursorId(cursor)) : undefined);

const publishedProducts = (ctx: StorefrontContext, args: ConnectionArgs, collectionId?: string) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listPublicProducts(
        ctx.platform,
        ctx.store,
        { sort: backwards ? '-created_at' : 'created_at', limit, cursor: cursor ? { v: cursorId(cursor), id: new ObjectId(cursorId(cursor)) } : undefined },
        collectionId,
      ),
    (p) => p,
  );

const mailing = (a: PostalAddress & { id?: string; province?: string | null }) => ({
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

export const storefrontResolvers: Resolvers<StorefrontContext> = {
  QueryRoot: {
    shop: (_: never, __: never, ctx: StorefrontContext) => ctx.store,
    product: (_: never, { handle }: { handle: string }, ctx: StorefrontContext) => orNull(getPublicProduct(ctx.platform, ctx.store, handle.slice(0, 255))),
    products: (_: never, args: ConnectionArgs, ctx: StorefrontContext) => publishedProducts(ctx, args),
    collection: async (_: never, { handle }: { handle: string }, ctx: StorefrontContext) =>
      findCollectionByHandle(ctx.platform, ctx.store.id, handle.slice(0, 255)),
    collections: (_: never, args: ConnectionArgs, ctx: StorefrontContext) =>
      pagedConnection(
        args,
        ({ limit, cursor, backwards }) => listPublicCollections(ctx.platform, ctx.store.id, { limit, cursor: idCursorOf(cursor), backwards }),
        (c) => c,
      ),
    cart: (_: never, { token }: { token?: string | null }, ctx: StorefrontContext) => {
      const cartToken = token ?? ctx.cartToken;
      return cartToken ? orNull(loadPricedCart(ctx.platform, ctx.store, cartToken).then(presentCart)) : null;
    },
    customer: (_: never, __: never, ctx: StorefrontContext) => (ctx.customerId ? getAccount(ctx.platform, ctx.store.id, ctx.customerId) : null),
  },
  Shop: {
    currencyCode: (s: StoreView) => s.currency,
  },
  Product: {
    id: (p: PublicProductView) => toGlobalId('Product', p.id),
    descriptionHtml: (p: PublicProductView) => p.description_html,
    productType: (p: PublicProductView) => p.product_type,
    availableForSale: (p: PublicProductView) => p.available,
    priceRange: (p: PublicProductView) => ({ minVariantPrice: money(p.price_min, p.currency), maxVariantPrice: money(p.price_max, p.currency) }),
    variants: (p: PublicProductView, args: ConnectionArgs) => arrayConnection(p.variants, args, (v): PublicVariant => ({ ...v, options: p.options })),
  },
  ProductVariant: {
    id: (v: PublicVariant) => toGlobalId('ProductVariant', v.id),
    price: (v: PublicVariant) => money(v.price, v.currency),
    compareAtPrice: (v: PublicVariant) => (v.compare_at_price === null ? null : money(v.compare_at_price, v.currency)),
    selectedOptions: (v: PublicVariant) => v.options.map((o, i) => ({ name: o.name, value: v.option_values[i] ?? '' })),
    availableForSale: (v: PublicVariant) => v.available,
  },
  Collection: {
    id: (c: PublicCollection) => toGlobalId('Collection', c.id),
    descriptionHtml: (c: PublicCollection) => c.description_html,
    products: (c: PublicCollection, args: ConnectionArgs, ctx: StorefrontContext) => publishedProducts(ctx, args, c.id),
  },
  Cart: {
    id: (c: CartView) => toGlobalId('Cart', c.id),
    lines: (c: CartView) =>
      c.lines.map((l) => ({
        variantId: toGlobalId('ProductVariant', l.variant_id),
        productId: l.product_id ? toGlobalId('Product', l.product_id) : null,
        productTitle: l.product_title,
        variantTitle: l.variant_title,
        quantity: l.quantity,
        unitPrice: l.unit_price === null ? null : money(l.unit_price, c.currency),
        lineTotal: money(l.line_total, c.currency),
        problem: l.problem ? enumValue(l.problem) : null,
      })),
    itemCount: (c: CartView) => c.item_count,
    coupon: (c: CartView) =>
      c.coupon ? { code: c.coupon.code, applicable: c.coupon.applicable, discount: money(c.coupon.discount, c.currency), reason: c.coupon.reason } : null,
    subtotal: (c: CartView) => money(c.subtotal, c.currency),
    discount: (c: CartView) => money(c.discount, c.currency),
    total: (c: CartView) => money(c.total, c.currency),
    expiresAt: (c: CartView) => c.expires_at,
    createdAt: (c: CartView) => c.created_at,
    updatedAt: (c: CartView) => c.updated_at,
  },
  Customer: {
    id: (c: AccountView) => toGlobalId('Customer', c.id),
    firstName: (c: AccountView) => c.first_name,
    lastName: (c: AccountView) => c.last_name,
    acceptsMarketing: (c: AccountView) => c.accepts_marketing,
    defaultAddress: async (c: AccountView, _: never, ctx: StorefrontContext) => {
      const found = (await addressesOfCustomers(ctx.platform, ctx.store.id, [c.id])).get(c.id)?.find((a) => a.id === c.default_address_id);
      return found ? mailing(found) : null;
    },
    addresses: async (c: AccountView, args: ConnectionArgs, ctx: StorefrontContext) =>
      arrayConnection((await addressesOfCustomers(ctx.platform, ctx.store.id, [c.id])).get(c.id) ?? [], args, mailing),
    orders: (c: AccountView, args: ConnectionArgs, ctx: StorefrontContext) =>
      pagedConnection(
        args,
        ({ limit, cursor, backwards }) => listCustomerOrders(ctx.platform, ctx.store.id, c.id, { limit, cursor: idCursorOf(cursor), backwards }),
        (o) => o,
      ),
    createdAt: (c: AccountView) => c.created_at,
  },
  Order: {
    id: (o: CustomerOrderView) => toGlobalId('Order', o.id),
    name: (o: CustomerOrderView) => `#${o.number}`,
    lineItems: (o: CustomerOrderView) =>
      o.line_items.map((l) => ({
        title: l.title,
        variantTitle: l.variant_title,
        quantity: l.quantity,
        unitPrice: money(l.unit_price, o.currency),
        total: money(l.total, o.currency),
      })),
    subtotal: (o: CustomerOrderView) => money(o.subtotal, o.currency),
    totalShipping: (o: CustomerOrderView) => money(o.shipping_total, o.currency),
    totalTax: (o: CustomerOrderView) => money(o.tax_total, o.currency),
    total: (o: CustomerOrderView) => money(o.total, o.currency),
    financialStatus: (o: CustomerOrderView) => enumValue(o.financial_status),
    fulfillmentStatus: (o: CustomerOrderView) => enumValue(o.fulfillment_status),
    createdAt: (o: CustomerOrderView) => o.created_at,
  },
} as unknown as Resolvers<StorefrontContext>;

export const storefrontInterfaces = { Node: (value: { __typename?: string }) => value.__typename ?? 'Product' };
