import { AdjustLevelBody, adjustInventory, getLocation, listLevels, listLocations } from '../../inventory/index.js';
import { connectionTypeDefs, cursorObjectId, type ConnectionArgs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { byId, listField, need, resourceFields, type AdminContext } from './context.js';
import { mutation, payloadTypeDefs } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import { variantOf } from './products.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** Locations and stock levels, of a location or a variant (read_inventory), and stock adjustments (write_inventory). */
export const typeDefs = /* GraphQL */ `
  type Location implements Node {
    id: ID!
    legacyResourceId: String!
    name: String!
    address1: String
    city: String
    countryCode: String
    zip: String
    isActive: Boolean!
    inventoryLevels(first: Int, after: String, last: Int, before: String): InventoryLevelConnection
    createdAt: DateTime!
    updatedAt: DateTime!
  }
  ${connectionTypeDefs('Location')}

  """
  A variant's stock at a location: available for sale, committed to orders, and on hand (the two together).
  """
  type InventoryLevel implements Node {
    id: ID!
    available: Int!
    committed: Int!
    onHand: Int!
    variant: ProductVariant
    location: Location
    updatedAt: DateTime!
  }
  ${connectionTypeDefs('InventoryLevel')}

  extend type ProductVariant {
    inventoryLevels(first: Int, after: String, last: Int, before: String): InventoryLevelConnection
  }

  extend type QueryRoot {
    location(id: ID!): Location
    locations(first: Int, after: String, last: Int, before: String, active: Boolean): LocationConnection
  }

  enum InventoryAdjustReason {
    RECEIVED
    CORRECTION
    DAMAGED
    SHRINKAGE
    RESTOCK
    OTHER
  }

  input InventoryAdjustInput {
    variantId: ID!
    locationId: ID!
    delta: Int!
    reason: InventoryAdjustReason
  }

  ${payloadTypeDefs('InventoryLevel')}
  extend type Mutation {
    inventoryAdjustQuantity(input: InventoryAdjustInput!): InventoryLevelPayload
  }
`;

/** Stock levels of a variant or a location (read_inventory). */
const levelConnection = (ctx: AdminContext, args: ConnectionArgs, filter: { variant_id?: string; location_id?: string }) =>
  listField(ctx, 'Location', 'inventoryLevels', args, ({ limit, cursor, backwards }) =>
    listLevels(ctx.platform, ctx.store.id, { limit, cursor: cursorObjectId(cursor), backwards, ...filter }),
  );

export const resolvers: Resolvers = {
  QueryRoot: {
    location: (_, { id }, ctx) => byId(ctx, id, 'Location', 'location', getLocation),
    locations: (_, args, ctx) =>
      listField(ctx, 'Location', 'locations', args, ({ limit, cursor, backwards }) =>
        listLocations(ctx.platform, ctx.store.id, {
          limit,
          cursor: cursorObjectId(cursor),
          backwards,
          ...(typeof args.active === 'boolean' ? { active: args.active } : {}),
        }),
      ),
  },
  Location: {
    ...resourceFields('Location'),
    countryCode: (l) => l.country_code,
    isActive: (l) => l.active,
    inventoryLevels: (l, args, ctx) => levelConnection(ctx, args, { location_id: l.id }),
  },
  InventoryLevel: {
    id: (l) => toGlobalId('InventoryLevel', l.id),
    onHand: (l) => l.on_hand,
    variant: (l, _, ctx) => {
      need(ctx, 'read_products', 'variant');
      return variantOf(ctx, l.variant_id);
    },
    location: (l, _, ctx) => orNull(getLocation(ctx.platform, ctx.store.id, l.location_id)),
    updatedAt: (l) => l.updated_at,
  },
  ProductVariant: {
    inventoryLevels: (v, args, ctx) => levelConnection(ctx, args, { variant_id: v.id }),
  },
};

export const mutations: MutationResolvers = {
  inventoryAdjustQuantity: mutation({
    scope: 'write_inventory',
    input: AdjustLevelBody,
    payloadKey: 'inventoryLevel',
    run: (ctx, { body }) => adjustInventory(ctx.platform, ctx.store.id, body),
  }),
};

export const nodes: NodeLoaders = {
  Location: async (ctx, id) => tagged('Location', await orNull(getLocation(ctx.platform, ctx.store.id, id))),
};
