import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import { ObjectId } from 'mongodb';
import type { z } from 'zod';
import {
  collectionsByIds,
  findProductByHandle,
  findVariants,
  listCollections,
  listProducts,
  ListProductsQuery,
  productsByIds,
  type CollectionView,
  type ProductView,
  type VariantView,
} from '../../catalog/index.js';
import { addressesOfCustomers, customersByIds, listCustomers, ListCustomersQuery, type CustomerView } from '../../customers/index.js';
import type { AppContext, AppPrincipal, MerchantPrincipal, ScopedStore } from '../../http/context.js';
import { listOrders, ListOrdersQuery, ordersByIds, type OrderView } from '../../orders/index.js';
import { encodeKeysetCursor } from '../../pagination.js';
import { transactionsOfOrders } from '../../payments/index.js';
import { getCoupon, listCoupons, ListCouponsQuery, type CouponView } from '../../coupons/index.js';
import { getGiftCard, listGiftCards, ListGiftCardsQuery, type GiftCardView } from '../../giftcards/index.js';
import { getLocation, listLevels, listLocations, type LevelView, type LocationView } from '../../inventory/index.js';
import { getSubscription, listSubscriptions, type SubscriptionView } from '../../webhooks/index.js';
import { orNull } from '../resolving.js';
import { MERCHANTS_ONLY, TYPE_SCOPES } from './scopes.js';
import { mediaByIds, type MediaView } from '../../media/index.js';
import { getInstallation } from '../../apps/index.js';
import type { Platform } from '../../platform.js';
import type { PostalAddress } from '../../postal-address.js';
import { arrayConnection, cursorId, pagedConnection, type ConnectionArgs } from '../connections.js';
import { fromGlobalId, idOf, toGlobalId } from '../ids.js';
import { enumValue, money, type Resolvers } from '../schema.js';
import { ownValue } from '../../own-keys.js';
import type { ViewFields } from '../../projection.js';

/** What each admin resolver gets: the request's caller and store, and its batched loaders. */
export type AdminContext = {
  platform: Platform;
  store: ScopedStore;
  principal: MerchantPrincipal | AppPrincipal;
  loaders: ReturnType<typeof adminLoaders>;
  /** The fields of products, collections, customers and orders the query reads (a bulk export's: only what it selects); absent, whole. */
  reads?: ViewReads;
  /** The HTTP request (its Idempotency-Key), set by the transport. */
  koa?: AppContext;
};

/** Of each kind of object read from the catalog, customers and orders, the fields of its view to read (src/projection.ts); a kind not named is read whole. */
export type ViewReads = {
  products?: ViewFields<ProductView>;
  collections?: ViewFields<CollectionView>;
  customers?: ViewFields<CustomerView>;
  orders?: ViewFields<OrderView>;
};

/**
 * Per request, one read per kind of object however many a page asks for (DataLoader): a page of
 * 50 orders with their customers is two reads, not 51. With `reads`, only those fields.
 */
export function adminLoaders(platform: Platform, storeId: string, reads: ViewReads = {}) {
  const byIds = <V>(find: (platform: Platform, storeId: string, ids: readonly string[]) => Promise<Map<string, V>>) =>
    new DataLoader<string, V | null>(async (ids) => {
      const found = await find(platform, storeId, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  return {
    products: byIds((p, s, ids) => productsByIds(p, s, ids, reads.products)),
    collections: byIds((p, s, ids) => collectionsByIds(p, s, ids, reads.collections)),
    customers: byIds((p, s, ids) => customersByIds(p, s, ids, reads.customers)),
    orders: byIds((p, s, ids) => ordersByIds(p, s, ids, reads.orders)),
    addresses: byIds(addressesOfCustomers),
    transactions: byIds(transactionsOfOrders),
    media: byIds(mediaByIds),
    /** A variant's product id (the product holds the variant). */
    variantProducts: new DataLoader<string, string | null>(async (ids) => {
      const refs = await findVariants(platform, storeId, [...ids]);
      return ids.map((id) => refs.get(id)?.product_id ?? null);
    }),
  };
}

/** Refuse a field the caller's token was not granted the scope of (Shopify's ACCESS_DENIED, naming the scope). */
export function need(ctx: AdminContext, scope: string | null, field: string): void {
  if (scope === null || ctx.principal.kind === 'merchant') return;
  if (scope === MERCHANTS_ONLY)
    throw new GraphQLError(`Access denied for ${field} field. Only the store's merchant reads it.`, {
      extensions: { code: 'ACCESS_DENIED', requiredAccess: 'merchant' },
    });
  if (ctx.principal.scopes.includes(scope)) return;
  throw new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
    extensions: { code: 'ACCESS_DENIED', requiredAccess: scope },
  });
}

/** A REST list's query from GraphQL arguments, checked by the REST schema (its issues are the caller's errors). */
function restQuery<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null)));
  if (parsed.success) return parsed.data;
  throw new GraphQLError(parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '), {
    extensions: { code: 'BAD_USER_INPUT' },
  });
}

// Parents: the REST views, with what a child needs of its parent.
type VariantNode = VariantView & { product_id: string; options: ProductView['options'] };
type LineNode = OrderView['line_items'][number] & { currency: string };

/** A variant with what its fields read of its product; the view is this request's own, so it is marked in place (a page's hundreds of variants copied for nothing otherwise). */
const variantNode = (p: ProductView, v: VariantView): VariantNode => Object.assign(v, { product_id: p.id, options: p.options });
const typed = <T extends object>(typename: string, value: T | null) => (value ? { ...value, __typename: typename } : null);

async function productOf(ctx: AdminContext, id: string): Promise<ProductView | null> {
  return ctx.loaders.products.load(id);
}

async function variantOf(ctx: AdminContext, variantId: string): Promise<VariantNode | null> {
  const productId = await ctx.loaders.variantProducts.load(variantId);
  const product = productId ? await productOf(ctx, productId) : null;
  const variant = product?.variants.find((v) => v.id === variantId);
  return product && variant ? variantNode(product, variant) : null;
}

/** Any object of the store by global id, or null (another store's, an unknown type, a malformed id). */
async function nodeOf(ctx: AdminContext, gid: string): Promise<object | null> {
  const parsed = fromGlobalId(gid);
  if (!parsed || !Object.hasOwn(TYPE_SCOPES, parsed.type)) return null;
  need(ctx, TYPE_SCOPES[parsed.type]!, parsed.type);
  switch (parsed.type) {
    case 'Shop':
      return parsed.id === ctx.store.id ? typed('Shop', ctx.store) : null;
    case 'Product':
      return typed('Product', await productOf(ctx, parsed.id));
    case 'ProductVariant':
      return typed('ProductVariant', await variantOf(ctx, parsed.id));
    case 'Collection':
      return typed('Collection', await ctx.loaders.collections.load(parsed.id));
    case 'Customer':
      return typed('Customer', await ctx.loaders.customers.load(parsed.id));
    case 'Order':
      return typed('Order', await ctx.loaders.orders.load(parsed.id));
    case 'Location':
      return typed('Location', await orNull(getLocation(ctx.platform, ctx.store.id, parsed.id)));
    case 'GiftCard':
      return typed('GiftCard', await orNull(getGiftCard(ctx.platform, ctx.store.id, parsed.id)));
    case 'Coupon':
      return typed('Coupon', await orNull(getCoupon(ctx.platform, ctx.store.id, parsed.id)));
    case 'WebhookSubscription':
      return typed('WebhookSubscription', await orNull(getSubscription(ctx.platform, ctx.store.id, parsed.id)));
    default:
      return null;
  }
}

/** A REST cursor that resumes after (or before) the item a GraphQL cursor names. */
const restCursor = (cursor: string | undefined) => cursor;
const keysetCursor = (cursor: string | undefined) => (cursor ? encodeKeysetCursor(cursorId(cursor), new ObjectId(cursorId(cursor))) : undefined);

const products = (ctx: AdminContext, args: ConnectionArgs & { query?: string | null; collection_id?: string }) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listProducts(
        ctx.platform,
        ctx.store.id,
        restQuery(ListProductsQuery, {
          limit,
          cursor: keysetCursor(cursor),
          sort: backwards ? '-created_at' : 'created_at',
          query: args.query,
          collection_id: args.collection_id,
        }),
        ctx.reads?.products,
      ),
    (p) => p,
  );

/** An object of `type` by global id through its REST read, or null; the caller needs the type's scope. */
async function byId<T>(
  ctx: AdminContext,
  gid: string,
  type: string,
  field: string,
  read: (platform: Platform, storeId: string, id: string) => Promise<T>,
): Promise<T | null> {
  need(ctx, ownValue(TYPE_SCOPES, type) ?? null, field);
  const restId = idOf(gid, type);
  return restId ? orNull(read(ctx.platform, ctx.store.id, restId)) : null;
}

const objectIdOf = (cursor: string | undefined) => (cursor ? new ObjectId(cursorId(cursor)) : undefined);

/** Stock levels of a variant or a location (read_inventory). */
const levels = (ctx: AdminContext, args: ConnectionArgs, filter: { variant_id?: string; location_id?: string }) => {
  need(ctx, TYPE_SCOPES.Location!, 'inventoryLevels');
  return pagedConnection(
    args,
    ({ limit, cursor, backwards }) => listLevels(ctx.platform, ctx.store.id, { limit, cursor: objectIdOf(cursor), backwards, ...filter }),
    (l) => l,
  );
};

const orders = (ctx: AdminContext, args: ConnectionArgs, filter: { customer_id?: string } = {}) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listOrders(ctx.platform, ctx.store.id, { ...restQuery(ListOrdersQuery, { limit, cursor: restCursor(cursor), ...filter }), backwards }, ctx.reads?.orders),
    (o) => o,
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

/** A REST resource's global id, its REST id, and (with `timestamps`) its times. */
const common = (type: string, timestamps = true) => ({
  id: (v: { id: string }) => toGlobalId(type, v.id),
  legacyResourceId: (v: { id: string }) => v.id,
  ...(timestamps ? { createdAt: (v: { created_at: string }) => v.created_at, updatedAt: (v: { updated_at: string }) => v.updated_at } : {}),
});

export const adminResolvers: Resolvers<AdminContext> = {
  QueryRoot: {
    shop: (_: never, __: never, ctx: AdminContext) => ctx.store,
    node: (_: never, { id }: { id: string }, ctx: AdminContext) => nodeOf(ctx, id),
    // Each its own promise: one refused (a scope) is null with its error, the others answered.
    nodes: (_: never, { ids }: { ids: string[] }, ctx: AdminContext) => ids.slice(0, 250).map((id) => nodeOf(ctx, id)),
    product: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      need(ctx, 'read_products', 'product');
      const restId = idOf(id, 'Product');
      return restId ? productOf(ctx, restId) : null;
    },
    productByHandle: (_: never, { handle }: { handle: string }, ctx: AdminContext) => {
      need(ctx, 'read_products', 'productByHandle');
      return findProductByHandle(ctx.platform, ctx.store.id, handle.slice(0, 255));
    },
    products: (_: never, args: ConnectionArgs & { query?: string | null }, ctx: AdminContext) => {
      need(ctx, 'read_products', 'products');
      return products(ctx, args);
    },
    productVariant: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      need(ctx, 'read_products', 'productVariant');
      const restId = idOf(id, 'ProductVariant');
      return restId ? variantOf(ctx, restId) : null;
    },
    collection: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      need(ctx, 'read_products', 'collection');
      const restId = idOf(id, 'Collection');
      return restId ? ctx.loaders.collections.load(restId) : null;
    },
    collections: (_: never, args: ConnectionArgs, ctx: AdminContext) => {
      need(ctx, 'read_products', 'collections');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listCollections(
            ctx.platform,
            ctx.store.id,
            { limit, cursor: cursor ? new ObjectId(cursorId(cursor)) : undefined, backwards },
            ctx.reads?.collections,
          ),
        (c) => c,
      );
    },
    customer: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      need(ctx, 'read_customers', 'customer');
      const restId = idOf(id, 'Customer');
      return restId ? ctx.loaders.customers.load(restId) : null;
    },
    customers: (_: never, args: ConnectionArgs & { query?: string | null }, ctx: AdminContext) => {
      need(ctx, 'read_customers', 'customers');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listCustomers(
            ctx.platform,
            ctx.store.id,
            { ...restQuery(ListCustomersQuery, { limit, cursor: restCursor(cursor), query: args.query }), backwards },
            ctx.reads?.customers,
          ),
        (c) => c,
      );
    },
    order: (_: never, { id }: { id: string }, ctx: AdminContext) => {
      need(ctx, 'read_orders', 'order');
      const restId = idOf(id, 'Order');
      return restId ? ctx.loaders.orders.load(restId) : null;
    },
    orders: (_: never, args: ConnectionArgs, ctx: AdminContext) => {
      need(ctx, 'read_orders', 'orders');
      return orders(ctx, args);
    },
    currentAppInstallation: (_: never, __: never, ctx: AdminContext) =>
      ctx.principal.kind === 'app' ? getInstallation(ctx.platform, ctx.store.id, ctx.principal.installationId) : null,
    location: (_: never, { id }: { id: string }, ctx: AdminContext) => byId(ctx, id, 'Location', 'location', getLocation),
    locations: (_: never, args: ConnectionArgs & { active?: boolean | null }, ctx: AdminContext) => {
      need(ctx, TYPE_SCOPES.Location!, 'locations');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listLocations(ctx.platform, ctx.store.id, {
            limit,
            cursor: objectIdOf(cursor),
            backwards,
            ...(typeof args.active === 'boolean' ? { active: args.active } : {}),
          }),
        (l) => l,
      );
    },
    giftCard: (_: never, { id }: { id: string }, ctx: AdminContext) => byId(ctx, id, 'GiftCard', 'giftCard', getGiftCard),
    giftCards: (_: never, args: ConnectionArgs & { status?: string | null }, ctx: AdminContext) => {
      need(ctx, TYPE_SCOPES.GiftCard!, 'giftCards');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listGiftCards(ctx.platform, ctx.store.id, { ...restQuery(ListGiftCardsQuery, { limit, cursor, status: args.status?.toLowerCase() }), backwards }),
        (g) => g,
      );
    },
    coupon: (_: never, { id }: { id: string }, ctx: AdminContext) => byId(ctx, id, 'Coupon', 'coupon', getCoupon),
    coupons: (_: never, args: ConnectionArgs & { query?: string | null }, ctx: AdminContext) => {
      need(ctx, TYPE_SCOPES.Coupon!, 'coupons');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) =>
          listCoupons(ctx.platform, ctx.store.id, { ...restQuery(ListCouponsQuery, { limit, cursor, query: args.query }), backwards }),
        (c) => c,
      );
    },
    webhookSubscription: (_: never, { id }: { id: string }, ctx: AdminContext) => byId(ctx, id, 'WebhookSubscription', 'webhookSubscription', getSubscription),
    webhookSubscriptions: (_: never, args: ConnectionArgs, ctx: AdminContext) => {
      need(ctx, MERCHANTS_ONLY, 'webhookSubscriptions');
      return pagedConnection(
        args,
        ({ limit, cursor, backwards }) => listSubscriptions(ctx.platform, ctx.store.id, { limit, cursor: objectIdOf(cursor), backwards }),
        (w) => w,
      );
    },
  },
  Shop: {
    id: (s: ScopedStore) => toGlobalId('Shop', s.id),
    currencyCode: (s: ScopedStore) => s.currency,
    createdAt: (s: ScopedStore) => s.created_at,
    updatedAt: (s: ScopedStore) => s.updated_at,
  },
  Product: {
    ...common('Product'),
    descriptionHtml: (p: ProductView) => p.description_html,
    productType: (p: ProductView) => p.product_type,
    status: (p: ProductView) => enumValue(p.status),
    variants: (p: ProductView, args: ConnectionArgs) => arrayConnection(p.variants, args, (v) => variantNode(p, v)),
    priceRange: (p: ProductView) => ({ minVariantPrice: money(p.price_min, p.currency), maxVariantPrice: money(p.price_max, p.currency) }),
    media: async (p: ProductView, _: never, ctx: AdminContext) => {
      need(ctx, 'read_files', 'media');
      return (await ctx.loaders.media.loadMany(p.media_ids)).filter((m): m is MediaView => m !== null && !(m instanceof Error));
    },
  },
  MediaImage: {
    id: (m: MediaView) => toGlobalId('MediaImage', m.id),
    contentType: (m: MediaView) => m.content_type,
    url: (m: MediaView) => m.url ?? null,
    createdAt: (m: MediaView) => m.created_at,
  },
  AppInstallation: {
    id: (i: { id: string }) => toGlobalId('AppInstallation', i.id),
    accessScopes: (i: { scopes: string[] }) => i.scopes,
    status: (i: { status: string }) => enumValue(i.status),
    installedAt: (i: { installed_at: string }) => i.installed_at,
  },
  ProductVariant: {
    ...common('ProductVariant', false),
    price: (v: VariantNode) => money(v.price, v.currency),
    compareAtPrice: (v: VariantNode) => (v.compare_at_price === null ? null : money(v.compare_at_price, v.currency)),
    selectedOptions: (v: VariantNode) => v.options.map((o, i) => ({ name: o.name, value: v.option_values[i] ?? '' })),
    weightGrams: (v: VariantNode) => v.weight_grams,
    inventoryTracked: (v: VariantNode) => v.inventory_tracked,
    inventoryPolicy: (v: VariantNode) => enumValue(v.inventory_policy),
    product: (v: VariantNode, _: never, ctx: AdminContext) => productOf(ctx, v.product_id),
    inventoryLevels: (v: VariantNode, args: ConnectionArgs, ctx: AdminContext) => levels(ctx, args, { variant_id: v.id }),
  },
  Collection: {
    ...common('Collection'),
    descriptionHtml: (c: CollectionView) => c.description_html,
    type: (c: CollectionView) => enumValue(c.type),
    products: (c: CollectionView, args: ConnectionArgs, ctx: AdminContext) => products(ctx, { ...args, collection_id: c.id }),
  },
  Customer: {
    ...common('Customer'),
    firstName: (c: CustomerView) => c.first_name,
    lastName: (c: CustomerView) => c.last_name,
    acceptsMarketing: (c: CustomerView) => c.accepts_marketing,
    numberOfOrders: (c: CustomerView) => c.orders_count,
    amountSpent: (c: CustomerView, _: never, ctx: AdminContext) => money(c.total_spent, c.currency ?? ctx.store.currency),
    defaultAddress: async (c: CustomerView, _: never, ctx: AdminContext) => {
      const found = (await ctx.loaders.addresses.load(c.id))?.find((a) => a.id === c.default_address_id);
      return found ? mailing(found) : null;
    },
    addresses: async (c: CustomerView, args: ConnectionArgs, ctx: AdminContext) =>
      arrayConnection((await ctx.loaders.addresses.load(c.id)) ?? [], args, mailing),
    orders: (c: CustomerView, args: ConnectionArgs, ctx: AdminContext) => {
      need(ctx, 'read_orders', 'orders');
      return orders(ctx, args, { customer_id: c.id });
    },
  },
  Order: {
    ...common('Order'),
    name: (o: OrderView) => `#${o.number}`,
    currencyCode: (o: OrderView) => o.currency,
    customer: (o: OrderView, _: never, ctx: AdminContext) => {
      if (!o.customer_id) return null;
      need(ctx, 'read_customers', 'customer');
      return ctx.loaders.customers.load(o.customer_id);
    },
    lineItems: (o: OrderView, args: ConnectionArgs) => arrayConnection(o.line_items, args, (l): LineNode => ({ ...l, currency: o.currency })),
    shippingLine: (o: OrderView) =>
      o.shipping_line
        ? {
            title: o.shipping_line.title,
            code: o.shipping_line.code,
            price: money(o.shipping_line.price, o.currency),
            discount: money(o.shipping_line.discount, o.currency),
            tax: money(o.shipping_line.tax, o.currency),
          }
        : null,
    shippingAddress: (o: OrderView) => (o.shipping_address ? mailing(o.shipping_address) : null),
    billingAddress: (o: OrderView) => (o.billing_address ? mailing(o.billing_address) : null),
    subtotal: (o: OrderView) => money(o.subtotal, o.currency),
    totalDiscounts: (o: OrderView) => money(o.discount_total, o.currency),
    totalShipping: (o: OrderView) => money(o.shipping_total, o.currency),
    totalTax: (o: OrderView) => money(o.tax_total, o.currency),
    total: (o: OrderView) => money(o.total, o.currency),
    totalPaid: (o: OrderView) => money(o.paid_amount, o.currency),
    totalRefunded: (o: OrderView) => money(o.refunded_amount, o.currency),
    financialStatus: (o: OrderView) => enumValue(o.financial_status),
    fulfillmentStatus: (o: OrderView) => enumValue(o.fulfillment_status),
    fulfillments: (o: OrderView) =>
      o.fulfillments.map((f) => ({
        id: toGlobalId('Fulfillment', f.id),
        locationId: toGlobalId('Location', f.location_id),
        lineItems: f.line_items.map((l) => ({ lineItemId: toGlobalId('LineItem', l.line_item_id), quantity: l.quantity })),
        trackingCompany: f.tracking_company,
        trackingNumber: f.tracking_number,
        trackingUrl: f.tracking_url,
        createdAt: f.created_at,
      })),
    refunds: (o: OrderView) =>
      o.refunds.map((r) => ({
        id: toGlobalId('Refund', r.id),
        amount: money(r.amount, o.currency),
        lineItems: r.line_items.map((l) => ({ lineItemId: toGlobalId('LineItem', l.line_item_id), quantity: l.quantity })),
        reason: r.reason,
        restock: r.restock,
        createdAt: r.created_at,
      })),
    transactions: async (o: OrderView, _: never, ctx: AdminContext) =>
      ((await ctx.loaders.transactions.load(o.id)) ?? []).map((t) => ({
        id: toGlobalId('OrderTransaction', t.id),
        kind: enumValue(t.kind),
        status: enumValue(t.status),
        amount: money(t.amount, t.currency),
        gateway: t.provider,
        providerReference: t.provider_reference,
        createdAt: t.created_at,
      })),
    sourceName: (o: OrderView) => o.source,
    cancelledAt: (o: OrderView) => o.cancelled_at,
    cancelReason: (o: OrderView) => o.cancel_reason,
  },
  Location: {
    ...common('Location'),
    countryCode: (l: LocationView) => l.country_code,
    isActive: (l: LocationView) => l.active,
    inventoryLevels: (l: LocationView, args: ConnectionArgs, ctx: AdminContext) => levels(ctx, args, { location_id: l.id }),
  },
  InventoryLevel: {
    id: (l: LevelView) => toGlobalId('InventoryLevel', l.id),
    onHand: (l: LevelView) => l.on_hand,
    variant: (l: LevelView, _: never, ctx: AdminContext) => {
      need(ctx, 'read_products', 'variant');
      return variantOf(ctx, l.variant_id);
    },
    location: (l: LevelView, _: never, ctx: AdminContext) => orNull(getLocation(ctx.platform, ctx.store.id, l.location_id)),
    updatedAt: (l: LevelView) => l.updated_at,
  },
  GiftCard: {
    ...common('GiftCard'),
    lastCharacters: (g: GiftCardView) => g.last_characters,
    initialValue: (g: GiftCardView) => money(g.initial_value, g.currency),
    balance: (g: GiftCardView) => money(g.balance, g.currency),
    status: (g: GiftCardView) => enumValue(g.status),
    expiresOn: (g: GiftCardView) => g.expires_on,
    customerId: (g: GiftCardView) => (g.customer_id ? toGlobalId('Customer', g.customer_id) : null),
    disabledAt: (g: GiftCardView) => g.disabled_at,
  },
  Coupon: {
    ...common('Coupon'),
    type: (c: CouponView) => enumValue(c.type),
    minimumSubtotal: (c: CouponView) => (c.minimum_subtotal === null ? null : money(c.minimum_subtotal, c.currency)),
    usageLimit: (c: CouponView) => c.usage_limit,
    usageLimitPerCustomer: (c: CouponView) => c.usage_limit_per_customer,
    usageCount: (c: CouponView) => c.usage_count,
    startsAt: (c: CouponView) => c.starts_at,
    endsAt: (c: CouponView) => c.ends_at,
  },
  WebhookSubscription: {
    ...common('WebhookSubscription'),
    targetUrl: (w: SubscriptionView) => w.target_url,
    eventTypes: (w: SubscriptionView) => w.event_types,
    disabledReason: (w: SubscriptionView) => w.disabled_reason,
  },
  LineItem: {
    id: (l: LineNode) => toGlobalId('LineItem', l.id),
    variantTitle: (l: LineNode) => l.variant_title,
    variant: (l: LineNode, _: never, ctx: AdminContext) => {
      if (!l.variant_id) return null;
      need(ctx, 'read_products', 'variant');
      return variantOf(ctx, l.variant_id);
    },
    product: (l: LineNode, _: never, ctx: AdminContext) => {
      if (!l.product_id) return null;
      need(ctx, 'read_products', 'product');
      return productOf(ctx, l.product_id);
    },
    unitPrice: (l: LineNode) => money(l.unit_price, l.currency),
    totalDiscount: (l: LineNode) => money(l.discount, l.currency),
    totalTax: (l: LineNode) => money(l.tax, l.currency),
    total: (l: LineNode) => money(l.total, l.currency),
    fulfilledQuantity: (l: LineNode) => l.fulfilled_quantity,
    refundedQuantity: (l: LineNode) => l.refunded_quantity,
  },
} as unknown as Resolvers<AdminContext>;

/** Node's members, by the type a resolver tagged its object with. */
export const adminInterfaces = { Node: (value: { __typename?: string }) => value.__typename ?? 'Product' };
