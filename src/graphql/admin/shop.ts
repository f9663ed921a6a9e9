import { toGlobalId } from '../ids.js';
import type { NodeLoaders } from './nodes.js';
import type { Resolvers } from './types.generated.js';

/** The store the request acts on. */
export const typeDefs = /* GraphQL */ `
  type Shop implements Node {
    id: ID!
    name: String!
    subdomain: String!
    currencyCode: String!
    locale: String!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  extend type QueryRoot {
    """
    The store the request acts on.
    """
    shop: Shop!
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    shop: (_, __, ctx) => ctx.store,
  },
  Shop: {
    id: (s) => toGlobalId('Shop', s.id),
    currencyCode: (s) => s.currency,
    createdAt: (s) => s.created_at,
    updatedAt: (s) => s.updated_at,
  },
};

export const nodes: NodeLoaders = {
  Shop: async (ctx, id) => (id === ctx.store.id ? { ...ctx.store, __typename: 'Shop' } : null),
};
