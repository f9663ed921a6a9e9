import { z } from 'zod';
import { CreateCollectionBody, UpdateCollectionBody, createCollection, deleteCollection, listCollections, updateCollection } from '../../catalog/index.js';
import { listedTypeDefs, cursorObjectId } from '../connections.js';
import { enumValue } from '../shared.js';
import { listField, loadedById, resourceFields } from './context.js';
import { deletion, mutation, payloadTypeDefs } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import { productConnection } from './products.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** Collections and their products (read_products). */
export const typeDefs = /* GraphQL */ `
  enum CollectionType {
    MANUAL
    RULE
  }

  type Collection implements Node {
    id: ID!
    legacyResourceId: String!
    title: String!
    handle: String!
    descriptionHtml: String!
    type: CollectionType!
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${listedTypeDefs('Collection', 'collection', 'collections')}

  """
  A manual collection and its products (rule collections are made through REST).
  """
  input CollectionCreateInput {
    title: String!
    handle: String
    descriptionHtml: String
    productIds: [ID!]
  }

  input CollectionUpdateInput {
    title: String
    handle: String
    descriptionHtml: String
    productIds: [ID!]
  }

  ${payloadTypeDefs('Collection')}
  extend type Mutation {
    collectionCreate(input: CollectionCreateInput!): CollectionPayload
    collectionUpdate(id: ID!, input: CollectionUpdateInput!): CollectionPayload
    collectionDelete(id: ID!): DeletePayload
  }
`;

export const resolvers: Resolvers = {
  QueryRoot: {
    collection: (_, { id }, ctx) => loadedById(ctx, id, 'Collection', 'collection', ctx.loaders.collections),
    collections: (_, args, ctx) =>
      listField(ctx, 'Collection', 'collections', args, ({ limit, cursor, backwards }) =>
        listCollections(ctx.platform, ctx.store.id, { limit, cursor: cursorObjectId(cursor), backwards }, ctx.reads?.collections),
      ),
  },
  Collection: {
    ...resourceFields('Collection'),
    descriptionHtml: (c) => c.description_html,
    type: (c) => enumValue(c.type),
    products: (c, args, ctx) => productConnection(ctx, { ...args, collection_id: c.id }),
  },
};

/** collectionCreate makes manual collections (rule collections are made through REST): REST's body with its type. */
const ManualCollectionBody = z.preprocess(
  (input) => (input !== null && typeof input === 'object' ? { ...input, type: 'manual' } : input),
  CreateCollectionBody,
);

export const mutations: MutationResolvers = {
  collectionCreate: mutation({
    scope: 'write_products',
    input: ManualCollectionBody,
    payloadKey: 'collection',
    run: (ctx, { body }) => createCollection(ctx.platform, ctx.store.id, body),
  }),
  collectionUpdate: mutation({
    scope: 'write_products',
    idType: 'Collection',
    input: UpdateCollectionBody,
    payloadKey: 'collection',
    run: (ctx, { body, id }) => updateCollection(ctx.platform, ctx.store.id, id, body),
  }),
  collectionDelete: deletion('write_products', 'Collection', (ctx, id) => deleteCollection(ctx.platform, ctx.store.id, id)),
};

export const nodes: NodeLoaders = {
  Collection: async (ctx, id) => tagged('Collection', await ctx.loaders.collections.load(id)),
};
