import { findCollectionByHandle } from '../../catalog/index.js';
import { listPublicCollections } from '../../storefront/index.js';
import { connectionTypeDefs, cursorObjectId, pagedConnection } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { publishedProducts } from './products.js';
import type { Resolvers } from './types.generated.js';

/** Collections and their published products. */
export const typeDefs = /* GraphQL */ `
  type Collection implements Node {
    id: ID!
    title: String!
    handle: String!
    descriptionHtml: String!
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
  }
  ${connectionTypeDefs('Collection')}

  extend type QueryRoot {
    collection(handle: String!): Collection
    collections(first: Int, after: String, last: Int, before: String): CollectionConnection!
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    collection: (_, { handle }, ctx) => findCollectionByHandle(ctx.platform, ctx.store.id, handle.slice(0, 255)),
    collections: (_, args, ctx) =>
      pagedConnection(
        args,
        ({ limit, cursor, backwards }) => listPublicCollections(ctx.platform, ctx.store.id, { limit, cursor: cursorObjectId(cursor), backwards }),
        (c) => c,
      ),
  },
  Collection: {
    id: (c) => toGlobalId('Collection', c.id),
    descriptionHtml: (c) => c.description_html,
    products: (c, args, ctx) => publishedProducts(ctx, args, c.id),
  },
};
