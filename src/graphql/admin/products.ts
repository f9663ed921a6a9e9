import { ObjectId } from 'mongodb';
import {
  CreateProductBody,
  ListProductsQuery,
  UpdateProductBody,
  createProduct,
  deleteProduct,
  findProductByHandle,
  listProducts,
  updateProduct,
  type ProductView,
  type VariantView,
} from '../../catalog/index.js';
import { notFound } from '../../errors.js';
import type { MediaView } from '../../media/index.js';
import { encodeKeysetCursor } from '../../pagination.js';
import { arrayConnection, connectionTypeDefs, cursorId, pagedConnection, type ConnectionArgs } from '../connections.js';
import { idOf, toGlobalId } from '../ids.js';
import { restQuery } from '../resolving.js';
import { optionalFields } from '../sdl.js';
import { enumValue, money, moneyOrNull, priceRange, productDescriptionFields, selectedOptions } from '../shared.js';
import { loadedById, need, resourceFields, resourceIds, type AdminContext } from './context.js';
import { deletion, mutation, payloadTypeDefs } from './mutation.js';
import { tagged, type NodeLoaders } from './nodes.js';
import type { VariantNode } from './parents.js';
import type { MutationResolvers, Resolvers } from './types.generated.js';

/** What a product is created with; an update takes the same fields, none required. */
const productInputFields = `
    title: String!
    handle: String
    descriptionHtml: String
    vendor: String
    productType: String
    tags: [String!]
    status: ProductStatus
    options: [ProductOptionInput!]
    variants: [ProductVariantInput!]!
`;

/** Products, their variants and their images (read_products; images read_files). */
export const typeDefs = /* GraphQL */ `
  enum ProductStatus {
    ACTIVE
    DRAFT
    ARCHIVED
  }

  enum InventoryPolicy {
    DENY
    CONTINUE
  }

  type Product implements Node {
    id: ID!
    legacyResourceId: String!
    ${productDescriptionFields}
    status: ProductStatus!
    options: [ProductOption!]!
    variants(first: Int, after: String, last: Int, before: String): ProductVariantConnection!
    priceRange: ProductPriceRange!
    media: [MediaImage!]
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type ProductVariant implements Node {
    id: ID!
    legacyResourceId: String!
    title: String!
    sku: String
    price: MoneyV2!
    compareAtPrice: MoneyV2
    selectedOptions: [SelectedOption!]!
    weightGrams: Int
    inventoryTracked: Boolean!
    inventoryPolicy: InventoryPolicy!
    product: Product!
  }
  ${connectionTypeDefs('Product')}
  ${connectionTypeDefs('ProductVariant')}

  """
  A media file of the store (an image), with a URL that expires.
  """
  type MediaImage implements Node {
    id: ID!
    filename: String!
    contentType: String!
    size: Int!
    width: Int
    height: Int
    alt: String
    url: String
    createdAt: DateTime!
  }

  extend type QueryRoot {
    product(id: ID!): Product
    productByHandle(handle: String!): Product
    products(first: Int, after: String, last: Int, before: String, query: String): ProductConnection
    productVariant(id: ID!): ProductVariant
  }

  input ProductOptionInput {
    name: String!
    values: [String!]!
  }

  """
  A variant. Amounts are integers in minor units of the store's currency, as in REST. id: a variant to keep (updates).
  """
  input ProductVariantInput {
    id: ID
    optionValues: [String!]
    sku: String
    price: Int!
    compareAtPrice: Int
    weightGrams: Int
    inventoryTracked: Boolean
    inventoryPolicy: InventoryPolicy
  }

  input ProductCreateInput {${productInputFields}}

  input ProductUpdateInput {${optionalFields(productInputFields)}}

  ${payloadTypeDefs('Product')}
  extend type Mutation {
    productCreate(input: ProductCreateInput!): ProductPayload
    productUpdate(id: ID!, input: ProductUpdateInput!): ProductPayload
    productDelete(id: ID!): DeletePayload
  }
`;

/** A variant with what its fields read of its product; the view is this request's own, so it is marked in place (a page's hundreds of variants copied for nothing otherwise). */
const variantNode = (p: ProductView, v: VariantView): VariantNode => Object.assign(v, { product_id: p.id, options: p.options });

export const productOf = (ctx: AdminContext, id: string): Promise<ProductView | null> => ctx.loaders.products.load(id);

export async function variantOf(ctx: AdminContext, variantId: string): Promise<VariantNode | null> {
  const productId = await ctx.loaders.variantProducts.load(variantId);
  const product = productId ? await productOf(ctx, productId) : null;
  const variant = product?.variants.find((v) => v.id === variantId);
  return product && variant ? variantNode(product, variant) : null;
}

/** A REST keyset cursor that resumes after (or before) the product a GraphQL cursor names. */
const keysetCursor = (cursor: string | undefined) => (cursor ? encodeKeysetCursor(cursorId(cursor), new ObjectId(cursorId(cursor))) : undefined);

/** The store's products, or a collection's, oldest first. */
export const productConnection = (ctx: AdminContext, args: ConnectionArgs & { query?: string | null; collection_id?: string }) =>
  pagedConnection(
    args,
    ({ limit, cursor, backwards }) =>
      listProducts(
        ctx.platform,
        ctx.store.id,
        restQuery(ListProductsQuery, {
          limit,
          cursor: keysetCursor(cursor),
          sort: backwards ? '-created_at' : 'created_at',
          query: args.query,
          collection_id: args.collection_id,
        }),
        ctx.reads?.products,
      ),
    (p) => p,
  );

export const resolvers: Resolvers = {
  QueryRoot: {
    product: (_, { id }, ctx) => loadedById(ctx, id, 'Product', 'product', ctx.loaders.products),
    productByHandle: (_, { handle }, ctx) => {
      need(ctx, 'read_products', 'productByHandle');
      return findProductByHandle(ctx.platform, ctx.store.id, handle.slice(0, 255));
    },
    products: (_, args, ctx) => {
      need(ctx, 'read_products', 'products');
      return productConnection(ctx, args);
    },
    productVariant: (_, { id }, ctx) => {
      need(ctx, 'read_products', 'productVariant');
      const restId = idOf(id, 'ProductVariant');
      return restId ? variantOf(ctx, restId) : null;
    },
  },
  Product: {
    ...resourceFields('Product'),
    descriptionHtml: (p) => p.description_html,
    productType: (p) => p.product_type,
    status: (p) => enumValue(p.status),
    variants: (p, args) => arrayConnection(p.variants, args, (v) => variantNode(p, v)),
    priceRange: (p) => priceRange(p),
    media: async (p, _, ctx) => {
      need(ctx, 'read_files', 'media');
      return (await ctx.loaders.media.loadMany(p.media_ids)).filter((m): m is MediaView => m !== null && !(m instanceof Error));
    },
  },
  ProductVariant: {
    ...resourceIds('ProductVariant'),
    price: (v) => money(v.price, v.currency),
    compareAtPrice: (v) => moneyOrNull(v.compare_at_price, v.currency),
    selectedOptions: (v) => selectedOptions(v.options, v.option_values),
    weightGrams: (v) => v.weight_grams,
    inventoryTracked: (v) => v.inventory_tracked,
    inventoryPolicy: (v) => enumValue(v.inventory_policy),
    // The product the variant was read from; gone only if it was deleted since.
    product: async (v, _, ctx) => (await productOf(ctx, v.product_id)) ?? Promise.reject(notFound('Product')),
  },
  MediaImage: {
    id: (m) => toGlobalId('MediaImage', m.id),
    contentType: (m) => m.content_type,
    url: (m) => m.url ?? null,
    createdAt: (m) => m.created_at,
  },
};

export const mutations: MutationResolvers = {
  productCreate: mutation({
    scope: 'write_products',
    input: CreateProductBody,
    payloadKey: 'product',
    run: (ctx, { body }) => createProduct(ctx.platform, ctx.store, body),
  }),
  productUpdate: mutation({
    scope: 'write_products',
    idType: 'Product',
    input: UpdateProductBody,
    payloadKey: 'product',
    run: (ctx, { body, id }) => updateProduct(ctx.platform, ctx.store.id, id, body),
  }),
  productDelete: deletion('write_products', 'Product', (ctx, id) => deleteProduct(ctx.platform, ctx.store.id, id)),
};

export const nodes: NodeLoaders = {
  Product: async (ctx, id) => tagged('Product', await productOf(ctx, id)),
  ProductVariant: async (ctx, id) => tagged('ProductVariant', await variantOf(ctx, id)),
};
