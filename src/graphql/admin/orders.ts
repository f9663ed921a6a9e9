import { CreateOrderBody, FulfillBody, ListOrdersQuery, RefundBody, createOrder, fulfillOrder, listOrders, refundOrder } from '../../orders/index.js';
import { arrayConnection, connectionTypeDefs, listedTypeDefs, pagedConnection, type ConnectionArgs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { restQuery } from '../resolving.js';
import { enumValue, mailingAddress, mailingAddressFields, money, orderName } from '../shared.js';
import { withoutFields } from '../sdl.js';
import { loadedById, need, resourceFields, type AdminContext } from './context.js';
import { mutation, payloadTypeDefs, requestOf } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import type { LineNode } from './parents.js';
import { productOf, variantOf } from './products.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** Orders, their lines, fulfilments, refunds and payments (read_orders), and the order writes (write_orders). */
export const typeDefs = /* GraphQL */ `
  enum OrderFinancialStatus {
    PENDING
    AUTHORIZED
    PAID
    PARTIALLY_REFUNDED
    REFUNDED
    VOIDED
  }

  enum OrderFulfillmentStatus {
    UNFULFILLED
    PARTIAL
    FULFILLED
  }

  type LineItem implements Node {
    id: ID!
    title: String!
    variantTitle: String
    sku: String
    quantity: Int!
    variant: ProductVariant
    product: Product
    unitPrice: MoneyV2!
    totalDiscount: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    taxable: Boolean!
    fulfilledQuantity: Int!
    refundedQuantity: Int!
  }
  ${connectionTypeDefs('LineItem')}

  type ShippingLine {
    title: String!
    code: String
    price: MoneyV2!
    discount: MoneyV2!
    tax: MoneyV2!
  }

  type FulfillmentLineItem {
    lineItemId: ID!
    quantity: Int!
  }

  type Fulfillment {
    id: ID!
    locationId: ID!
    lineItems: [FulfillmentLineItem!]!
    trackingCompany: String
    trackingNumber: String
    trackingUrl: String
    createdAt: DateTime!
  }

  type Refund {
    id: ID!
    amount: MoneyV2!
    lineItems: [FulfillmentLineItem!]!
    reason: String
    restock: Boolean!
    createdAt: DateTime!
  }

  type OrderTransaction {
    id: ID!
    kind: String!
    status: String!
    amount: MoneyV2!
    gateway: String!
    providerReference: String
    createdAt: DateTime!
  }

  type Order implements Node {
    id: ID!
    legacyResourceId: String!
    """
    The order's number as the merchant sees it: #1001.
    """
    name: String!
    number: Int!
    email: String
    currencyCode: String!
    customer: Customer
    lineItems(first: Int, after: String, last: Int, before: String): LineItemConnection!
    shippingLine: ShippingLine
    shippingAddress: MailingAddress
    billingAddress: MailingAddress
    subtotal: MoneyV2!
    totalDiscounts: MoneyV2!
    totalShipping: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    totalPaid: MoneyV2!
    totalRefunded: MoneyV2!
    financialStatus: OrderFinancialStatus!
    fulfillmentStatus: OrderFulfillmentStatus!
    fulfillments: [Fulfillment!]!
    refunds: [Refund!]!
    transactions: [OrderTransaction!]!
    note: String
    sourceName: String!
    cancelledAt: DateTime
    cancelReason: String
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${listedTypeDefs('Order', 'order', 'orders')}

  input MailingAddressInput {${withoutFields(mailingAddressFields, ['id', 'province'])}}

  """
  A line of the catalog (variantId and quantity) or a custom one (title, price in minor units, quantity).
  """
  input OrderLineInput {
    variantId: ID
    title: String
    price: Int
    quantity: Int!
    sku: String
    taxable: Boolean
  }

  input ShippingLineInput {
    title: String!
    code: String
    price: Int!
  }

  enum OrderCreateFinancialStatus {
    PENDING
    PAID
  }

  input OrderCreateInput {
    customerId: ID
    email: String
    lineItems: [OrderLineInput!]!
    couponCode: String
    shippingLine: ShippingLineInput
    shippingAddress: MailingAddressInput
    billingAddress: MailingAddressInput
    financialStatus: OrderCreateFinancialStatus
    locationId: ID
    note: String
  }

  input OrderLineQuantityInput {
    lineItemId: ID!
    quantity: Int!
  }

  input OrderFulfillInput {
    locationId: ID!
    lineItems: [OrderLineQuantityInput!]!
    trackingCompany: String
    trackingNumber: String
    trackingUrl: String
  }

  input OrderRefundInput {
    amount: Int
    lineItems: [OrderLineQuantityInput!]
    reason: String
    restock: Boolean
    locationId: ID
  }

  ${payloadTypeDefs('Order')}
  extend type Mutation {
    orderCreate(input: OrderCreateInput!): OrderPayload
    orderFulfill(id: ID!, input: OrderFulfillInput!): OrderPayload
    orderRefund(id: ID!, input: OrderRefundInput!): OrderPayload
  }
`;

/** The store's orders, or a customer's, oldest first. */
export const orderConnection = (ctx: AdminContext, args: ConnectionArgs, filter: { customer_id?: string } = {}) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listOrders(ctx.platform, ctx.store.id, { ...restQuery(ListOrdersQuery, { limit, cursor, ...filter }), backwards }, ctx.reads?.orders),
    (o) => o,
  );

/** A fulfilment's or a refund's lines: which line item, how many. */
const lineQuantities = (lines: readonly { line_item_id: string; quantity: number }[]) =>
  lines.map((l) => ({ lineItemId: toGlobalId('LineItem', l.line_item_id), quantity: l.quantity }));

export const resolvers: Resolvers = {
  QueryRoot: {
    order: (_, { id }, ctx) => loadedById(ctx, id, 'Order', 'order', ctx.loaders.orders),
    orders: (_, args, ctx) => {
      need(ctx, 'read_orders', 'orders');
      return orderConnection(ctx, args);
    },
  },
  Order: {
    ...resourceFields('Order'),
    name: (o) => orderName(o.number),
    currencyCode: (o) => o.currency,
    customer: (o, _, ctx) => {
      if (!o.customer_id) return null;
      need(ctx, 'read_customers', 'customer');
      return ctx.loaders.customers.load(o.customer_id);
    },
    lineItems: (o, args) => arrayConnection(o.line_items, args, (l): LineNode => ({ ...l, currency: o.currency })),
    shippingLine: (o) =>
      o.shipping_line
        ? {
            title: o.shipping_line.title,
            code: o.shipping_line.code,
            price: money(o.shipping_line.price, o.currency),
            discount: money(o.shipping_line.discount, o.currency),
            tax: money(o.shipping_line.tax, o.currency),
          }
        : null,
    shippingAddress: (o) => (o.shipping_address ? mailingAddress(o.shipping_address) : null),
    billingAddress: (o) => (o.billing_address ? mailingAddress(o.billing_address) : null),
    subtotal: (o) => money(o.subtotal, o.currency),
    totalDiscounts: (o) => money(o.discount_total, o.currency),
    totalShipping: (o) => money(o.shipping_total, o.currency),
    totalTax: (o) => money(o.tax_total, o.currency),
    total: (o) => money(o.total, o.currency),
    totalPaid: (o) => money(o.paid_amount, o.currency),
    totalRefunded: (o) => money(o.refunded_amount, o.currency),
    financialStatus: (o) => enumValue(o.financial_status),
    fulfillmentStatus: (o) => enumValue(o.fulfillment_status),
    fulfillments: (o) =>
      o.fulfillments.map((f) => ({
        id: toGlobalId('Fulfillment', f.id),
        locationId: toGlobalId('Location', f.location_id),
        lineItems: lineQuantities(f.line_items),
        trackingCompany: f.tracking_company,
        trackingNumber: f.tracking_number,
        trackingUrl: f.tracking_url,
        createdAt: f.created_at,
      })),
    refunds: (o) =>
      o.refunds.map((r) => ({
        id: toGlobalId('Refund', r.id),
        amount: money(r.amount, o.currency),
        lineItems: lineQuantities(r.line_items),
        reason: r.reason,
        restock: r.restock,
        createdAt: r.created_at,
      })),
    transactions: async (o, _, ctx) =>
      ((await ctx.loaders.transactions.load(o.id)) ?? []).map((t) => ({
        id: toGlobalId('OrderTransaction', t.id),
        kind: enumValue(t.kind),
        status: enumValue(t.status),
        amount: money(t.amount, t.currency),
        gateway: t.provider,
        providerReference: t.provider_reference,
        createdAt: t.created_at,
      })),
    sourceName: (o) => o.source,
    cancelledAt: (o) => o.cancelled_at,
    cancelReason: (o) => o.cancel_reason,
  },
  LineItem: {
    id: (l) => toGlobalId('LineItem', l.id),
    variantTitle: (l) => l.variant_title,
    variant: (l, _, ctx) => {
      if (!l.variant_id) return null;
      need(ctx, 'read_products', 'variant');
      return variantOf(ctx, l.variant_id);
    },
    product: (l, _, ctx) => {
      if (!l.product_id) return null;
      need(ctx, 'read_products', 'product');
      return productOf(ctx, l.product_id);
    },
    unitPrice: (l) => money(l.unit_price, l.currency),
    totalDiscount: (l) => money(l.discount, l.currency),
    totalTax: (l) => money(l.tax, l.currency),
    total: (l) => money(l.total, l.currency),
    fulfilledQuantity: (l) => l.fulfilled_quantity,
    refundedQuantity: (l) => l.refunded_quantity,
  },
};

export const mutations: MutationResolvers = {
  orderCreate: mutation({
    scope: 'write_orders',
    input: CreateOrderBody,
    payloadKey: 'order',
    run: (ctx, { body, args }) => createOrder(ctx.platform, ctx.store, body, requestOf(ctx, 'orderCreate', args.input)),
  }),
  orderFulfill: mutation({
    scope: 'write_orders',
    idType: 'Order',
    input: FulfillBody,
    payloadKey: 'order',
    run: (ctx, { body, id, args }) => fulfillOrder(ctx.platform, ctx.store.id, id, body, requestOf(ctx, `orderFulfill ${id}`, args.input)),
  }),
  orderRefund: mutation({
    scope: 'write_orders',
    idType: 'Order',
    input: RefundBody,
    payloadKey: 'order',
    run: (ctx, { body, id, args }) => refundOrder(ctx.platform, ctx.store.id, id, body, requestOf(ctx, `orderRefund ${id}`, args.input)),
  }),
};

export const nodes: NodeLoaders = {
  Order: async (ctx, id) => tagged('Order', await ctx.loaders.orders.load(id)),
};
