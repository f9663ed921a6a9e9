import { ObjectId } from 'mongodb';
import { getPublicProduct, listPublicProducts } from '../../storefront/index.js';
import { arrayConnection, connectionTypeDefs, cursorId, pagedConnection, type ConnectionArgs } from '../connections.js';
import { toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { money, moneyOrNull, priceRange, productDescriptionFields, selectedOptions } from '../shared.js';
import type { PublicVariant, StorefrontContext } from './context.js';
import type { Resolvers } from './types.generated.js';

/** Published products and their variants: no status, SKU, stock count or inventory policy (docs/graphql.md, The storefront schema). */
export const typeDefs = /* GraphQL */ `
  type Product implements Node {
    id: ID!
    ${productDescriptionFields}
    options: [ProductOption!]!
    availableForSale: Boolean!
    priceRange: ProductPriceRange!
    variants(first: Int, after: String, last: Int, before: String): ProductVariantConnection!
  }

  type ProductVariant implements Node {
    id: ID!
    title: String!
    price: MoneyV2!
    compareAtPrice: MoneyV2
    selectedOptions: [SelectedOption!]!
    availableForSale: Boolean!
  }
  ${connectionTypeDefs('Product')}
  ${connectionTypeDefs('ProductVariant')}

  extend type QueryRoot {
    """
    A published product by handle, or null.
    """
    product(handle: String!): Product
    """
    Published products, oldest first.
    """
    products(first: Int, after: String, last: Int, before: String): ProductConnection!
  }
`;

/** The store's published products, or a collection's, oldest first. */
export const publishedProducts = (ctx: StorefrontContext, args: ConnectionArgs, collectionId?: string) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listPublicProducts(
        ctx.platform,
        ctx.store,
        { sort: backwards ? '-created_at' : 'created_at', limit, cursor: cursor ? { v: cursorId(cursor), id: new ObjectId(cursorId(cursor)) } : undefined },
        collectionId,
      ),
    (p) => p,
  );

export const resolvers: Resolvers = {
  QueryRoot: {
    product: (_, { handle }, ctx) => orNull(getPublicProduct(ctx.platform, ctx.store, handle.slice(0, 255))),
    products: (_, args, ctx) => publishedProducts(ctx, args),
  },
  Product: {
    id: (p) => toGlobalId('Product', p.id),
    descriptionHtml: (p) => p.description_html,
    productType: (p) => p.product_type,
    availableForSale: (p) => p.available,
    priceRange: (p) => priceRange(p),
    variants: (p, args) => arrayConnection(p.variants, args, (v): PublicVariant => ({ ...v, options: p.options })),
  },
  ProductVariant: {
    id: (v) => toGlobalId('ProductVariant', v.id),
    price: (v) => money(v.price, v.currency),
    compareAtPrice: (v) => moneyOrNull(v.compare_at_price, v.currency),
    selectedOptions: (v) => selectedOptions(v.options, v.option_values),
    availableForSale: (v) => v.available,
  },
};
