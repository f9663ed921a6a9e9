import type { Resolvers } from './types.generated.js';

/** The store the storefront shows. */
export const typeDefs = /* GraphQL */ `
  type Shop {
    name: String!
    subdomain: String!
    currencyCode: String!
    locale: String!
  }

  extend type QueryRoot {
    shop: Shop!
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    shop: (_, __, ctx) => ctx.store,
  },
  Shop: {
    currencyCode: (s) => s.currency,
  },
};
