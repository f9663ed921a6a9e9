import { executableSchema } from '../schema.js';
import { nodeResolvers, sharedTypeDefs } from '../shared.js';
import * as cart from './cart.js';
import * as collections from './collections.js';
import * as customers from './customers.js';
import * as orders from './orders.js';
import * as products from './products.js';
import * as shop from './shop.js';
import type { Resolvers } from './types.generated.js';

/** The storefront schema's own root: what the schema is, and its one root type. */
const rootTypeDefs = /* GraphQL */ `
  """
  The Emporium Storefront API, public. The store is named by the X-Store-Subdomain header. Cart
  mutations stay on REST (POST, PATCH and DELETE /v1/storefront/:subdomain/cart): the cart query
  reads the same persisted cart, through its token. A customer's token (Authorization: Bearer)
  adds the customer query.
  """
  schema {
    query: QueryRoot
  }

  type QueryRoot
`;

/** What a domain adds to the storefront schema: its SDL fragment and its resolvers. */
type StorefrontDomain = { typeDefs: string; resolvers: Resolvers };

/** The domains, in the order their root fields are listed. */
const DOMAINS: StorefrontDomain[] = [shop, products, collections, cart, customers, orders];

/**
 * The storefront schema (docs/graphql.md, The storefront schema): what the public storefront REST
 * API shows, by the same allow-list (published products only, no stock counts, SKUs or internal
 * fields), the cart through its token, and the signed-in customer's own account.
 */
export const storefrontSchema = executableSchema(
  [sharedTypeDefs, rootTypeDefs, ...DOMAINS.map((d) => d.typeDefs)],
  [nodeResolvers, ...DOMAINS.map((d) => d.resolvers)],
);
