import { addressesOfCustomers, getAccount } from '../../customers/index.js';
import { arrayConnection } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { mailingAddress } from '../shared.js';
import type { StorefrontContext } from './context.js';
import { customerOrders } from './orders.js';
import type { Resolvers } from './types.generated.js';

/** The signed-in customer's own account (a customer's token of the store). */
export const typeDefs = /* GraphQL */ `
  """
  The signed-in customer's own account.
  """
  type Customer {
    id: ID!
    email: String
    firstName: String
    lastName: String
    phone: String
    acceptsMarketing: Boolean!
    defaultAddress: MailingAddress
    addresses(first: Int, after: String, last: Int, before: String): MailingAddressConnection!
    orders(first: Int, after: String, last: Int, before: String): OrderConnection!
    createdAt: DateTime!
  }

  extend type QueryRoot {
    """
    The customer whose token the request carries (Authorization: Bearer), or null without one.
    """
    customer: Customer
  }
`;

const addressesOf = async (ctx: StorefrontContext, customerId: string) =>
  (await addressesOfCustomers(ctx.platform, ctx.store.id, [customerId])).get(customerId) ?? [];

export const resolvers: Resolvers = {
  QueryRoot: {
    customer: (_, __, ctx) => (ctx.customerId ? getAccount(ctx.platform, ctx.store.id, ctx.customerId) : null),
  },
  Customer: {
    id: (c) => toGlobalId('Customer', c.id),
    firstName: (c) => c.first_name,
    lastName: (c) => c.last_name,
    acceptsMarketing: (c) => c.accepts_marketing,
    defaultAddress: async (c, _, ctx) => {
      const found = (await addressesOf(ctx, c.id)).find((a) => a.id === c.default_address_id);
      return found ? mailingAddress(found) : null;
    },
    addresses: async (c, args, ctx) => arrayConnection(await addressesOf(ctx, c.id), args, mailingAddress),
    orders: (c, args, ctx) => customerOrders(ctx, c.id, args),
    createdAt: (c) => c.created_at,
  },
};
