import { executableSchema } from '../schema.js';
import { nodeResolvers, sharedTypeDefs } from '../shared.js';
import * as apps from './apps.js';
import * as bulk from './bulk.js';
import * as collections from './collections.js';
import * as coupons from './coupons.js';
import * as customers from './customers.js';
import * as giftcards from './giftcards.js';
import * as inventory from './inventory.js';
import { nodeQueries, type NodeLoaders } from './nodes.js';
import * as orders from './orders.js';
import * as products from './products.js';
import * as shop from './shop.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';
import * as webhooks from './webhooks.js';

/**
 * The admin schema's own root (docs/graphql.md, The admin schema): what the schema is, its root
 * types with the fields that reach every domain's objects (`node`, `nodes`), what mutations share,
 * and the descriptions of the shared types (src/graphql/shared.ts): the admin's schema is the
 * documented one (introspection is on for every admin caller).
 */
const rootTypeDefs = /* GraphQL */ `
  """
  The Emporium Admin API: a store's catalog, customers, orders and inventory. A merchant session
  with X-Store-Id, or an app's access token (its store). Each field needs the scope its REST twin
  needs (read_products, read_orders, read_customers, read_inventory, ...).
  """
  schema {
    query: QueryRoot
    mutation: Mutation
  }

  """
  An ISO 8601 date and time in UTC: 2026-11-26T20:01:02.003Z.
  """
  scalar DateTime
  """
  A decimal number as a string, exact: "19.99".
  """
  scalar Decimal

  """
  An object with a global id: gid://emporium/<Type>/<id>.
  """
  interface Node

  """
  An amount in a currency: amount as a decimal string, and the exact integer in minor units.
  """
  type MoneyV2

  """
  A postal address: a customer's saved one (its id), or an order's (id null).
  """
  type MailingAddress {
    """
    A customer's free-text province (their own address); null on an order's.
    """
    province: String
  }

  type QueryRoot {
    """
    Any object by its global id, if it is this store's and the caller may read it; null otherwise.
    """
    node(id: ID!): Node
    """
    Objects by their global ids, in order; null for each that is not this store's or not readable.
    """
    nodes(ids: [ID!]!): [Node]!
  }

  """
  The main writes, each through the same service as its REST twin: each answers userErrors (every
  input problem at its path, or the rule broken) instead of failing. A mutation costs 10 plus what
  its payload selects. An Idempotency-Key header makes a retry answer the first response, as in REST.
  """
  type Mutation

  """
  A problem with a mutation's input or a rule it broke: the input path (["input", "variants", "0", "price"]), what is wrong, and a code.
  """
  type UserError {
    field: [String!]
    message: String!
    code: String
  }

  type DeletePayload {
    deletedId: ID
    userErrors: [UserError!]!
  }
`;

/** What a domain adds to the admin schema: its SDL fragment, its resolvers and mutations, and how `node(id:)` loads its objects. */
type AdminDomain = { typeDefs: string; resolvers: Resolvers; mutations?: MutationResolvers; nodes?: NodeLoaders };

/** The domains, in the order their root fields are listed. */
const DOMAINS: AdminDomain[] = [shop, products, collections, customers, orders, apps, bulk, inventory, giftcards, coupons, webhooks];

const loaders = new Map(DOMAINS.flatMap((d) => Object.entries(d.nodes ?? {})));

/** The admin schema (docs/graphql.md, The admin schema): the data of the REST admin API, read through the same services. */
export const adminSchema = executableSchema(
  [sharedTypeDefs, rootTypeDefs, ...DOMAINS.map((d) => d.typeDefs)],
  [nodeResolvers, { QueryRoot: nodeQueries(loaders) }, ...DOMAINS.flatMap((d) => [d.resolvers, { Mutation: d.mutations ?? {} }])],
);
