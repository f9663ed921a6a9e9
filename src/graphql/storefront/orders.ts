import { listCustomerOrders } from '../../orders/index.js';
import { connectionTypeDefs, cursorObjectId, pagedConnection, type ConnectionArgs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { enumValue, money, orderName } from '../shared.js';
import type { StorefrontContext } from './context.js';
import type { Resolvers } from './types.generated.js';

/** The signed-in customer's orders, as the customer sees them. */
export const typeDefs = /* GraphQL */ `
  type OrderLineItem {
    title: String!
    variantTitle: String
    quantity: Int!
    unitPrice: MoneyV2!
    total: MoneyV2!
  }

  type Order implements Node {
    id: ID!
    name: String!
    number: Int!
    lineItems: [OrderLineItem!]!
    subtotal: MoneyV2!
    totalShipping: MoneyV2!
    totalTax: MoneyV2!
    total: MoneyV2!
    financialStatus: String!
    fulfillmentStatus: String!
    createdAt: DateTime!
  }
  ${connectionTypeDefs('Order')}
`;

/** A customer's orders, oldest first. */
export const customerOrders = (ctx: StorefrontContext, customerId: string, args: ConnectionArgs) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) => listCustomerOrders(ctx.platform, ctx.store.id, customerId, { limit, cursor: cursorObjectId(cursor), backwards }),
    (o) => o,
  );

export const resolvers: Resolvers = {
  Order: {
    id: (o) => toGlobalId('Order', o.id),
    name: (o) => orderName(o.number),
    lineItems: (o) =>
      o.line_items.map((l) => ({
        title: l.title,
        variantTitle: l.variant_title,
        quantity: l.quantity,
        unitPrice: money(l.unit_price, o.currency),
        total: money(l.total, o.currency),
      })),
    subtotal: (o) => money(o.subtotal, o.currency),
    totalShipping: (o) => money(o.shipping_total, o.currency),
    totalTax: (o) => money(o.tax_total, o.currency),
    total: (o) => money(o.total, o.currency),
    financialStatus: (o) => enumValue(o.financial_status),
    fulfillmentStatus: (o) => enumValue(o.fulfillment_status),
    createdAt: (o) => o.created_at,
  },
};
