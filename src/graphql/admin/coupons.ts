import { getCoupon, listCoupons, ListCouponsQuery } from '../../coupons/index.js';
import { listedTypeDefs } from '../connections.js';
import { orNull, restQuery } from '../resolving.js';
import { enumValue, moneyOrNull } from '../shared.js';
import { byId, listField, resourceFields } from './context.js';
import { tagged, type NodeLoaders } from './nodes.js';
import type { Resolvers } from './types.generated.js';

/** Coupons, the store's discount codes (read_discounts). */
export const typeDefs = /* GraphQL */ `
  enum CouponType {
    PERCENTAGE
    FIXED_AMOUNT
    FREE_SHIPPING
  }

  type Coupon implements Node {
    id: ID!
    legacyResourceId: String!
    code: String!
    type: CouponType!
    """
    A percentage (1-100) for PERCENTAGE; minor units of the store's currency for FIXED_AMOUNT; null for FREE_SHIPPING.
    """
    value: Int
    minimumSubtotal: MoneyV2
    usageLimit: Int
    usageLimitPerCustomer: Int
    usageCount: Int!
    startsAt: DateTime
    endsAt: DateTime
    active: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${listedTypeDefs('Coupon', 'coupon', 'coupons', { filters: 'query: String', description: "Coupons whose code starts with query (as REST's query), or all." })}
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    coupon: (_, { id }, ctx) => byId(ctx, id, 'Coupon', 'coupon', getCoupon),
    coupons: (_, args, ctx) =>
      listField(ctx, 'Coupon', 'coupons', args, ({ limit, cursor, backwards }) =>
        listCoupons(ctx.platform, ctx.store.id, { ...restQuery(ListCouponsQuery, { limit, cursor, query: args.query }), backwards }),
      ),
  },
  Coupon: {
    ...resourceFields('Coupon'),
    type: (c) => enumValue(c.type),
    minimumSubtotal: (c) => moneyOrNull(c.minimum_subtotal, c.currency),
    usageLimit: (c) => c.usage_limit,
    usageLimitPerCustomer: (c) => c.usage_limit_per_customer,
    usageCount: (c) => c.usage_count,
    startsAt: (c) => c.starts_at,
    endsAt: (c) => c.ends_at,
  },
};

export const nodes: NodeLoaders = {
  Coupon: async (ctx, id) => tagged('Coupon', await orNull(getCoupon(ctx.platform, ctx.store.id, id))),
};
