import { loadPricedCart, presentCart } from '../../storefront/index.js';
import { toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { enumValue, money, moneyOrNull } from '../shared.js';
import type { Resolvers } from './types.generated.js';

/** The persisted cart, read through its token (cart mutations stay on REST). */
export const typeDefs = /* GraphQL */ `
  enum CartLineProblem {
    DELETED
    UNPUBLISHED
    OUT_OF_STOCK
  }

  """
  One line of a cart, priced now from the catalog (as GET /v1/storefront/:subdomain/cart answers it).
  """
  type CartLine {
    variantId: ID!
    productId: ID
    productTitle: String
    variantTitle: String
    quantity: Int!
    unitPrice: MoneyV2
    lineTotal: MoneyV2!
    problem: CartLineProblem
  }

  type CartCoupon {
    code: String!
    applicable: Boolean!
    discount: MoneyV2!
    reason: String
  }

  """
  A persisted cart, read through its token. Cart mutations stay on REST.
  """
  type Cart {
    id: ID!
    version: Int!
    lines: [CartLine!]!
    itemCount: Int!
    coupon: CartCoupon
    subtotal: MoneyV2!
    discount: MoneyV2!
    total: MoneyV2!
    purchasable: Boolean!
    expiresAt: DateTime!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  extend type QueryRoot {
    """
    The cart of a token (the argument, else the X-Cart-Token header), priced now; null for an unknown, expired or checked-out one.
    """
    cart(token: String): Cart
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    cart: (_, { token }, ctx) => {
      const cartToken = token ?? ctx.cartToken;
      return cartToken ? orNull(loadPricedCart(ctx.platform, ctx.store, cartToken).then(presentCart)) : null;
    },
  },
  Cart: {
    id: (c) => toGlobalId('Cart', c.id),
    lines: (c) =>
      c.lines.map((l) => ({
        variantId: toGlobalId('ProductVariant', l.variant_id),
        productId: l.product_id ? toGlobalId('Product', l.product_id) : null,
        productTitle: l.product_title,
        variantTitle: l.variant_title,
        quantity: l.quantity,
        unitPrice: moneyOrNull(l.unit_price, c.currency),
        lineTotal: money(l.line_total, c.currency),
        problem: l.problem ? enumValue(l.problem) : null,
      })),
    itemCount: (c) => c.item_count,
    coupon: (c) =>
      c.coupon ? { code: c.coupon.code, applicable: c.coupon.applicable, discount: money(c.coupon.discount, c.currency), reason: c.coupon.reason } : null,
    subtotal: (c) => money(c.subtotal, c.currency),
    discount: (c) => money(c.discount, c.currency),
    total: (c) => money(c.total, c.currency),
    expiresAt: (c) => c.expires_at,
    createdAt: (c) => c.created_at,
    updatedAt: (c) => c.updated_at,
  },
};
