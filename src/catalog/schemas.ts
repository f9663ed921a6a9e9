import { z } from 'zod';
import { IdString } from '../ids.js';
import { KeysetCursorParam, MAX_LIMIT, DEFAULT_LIMIT } from '../pagination.js';
import { updateBody } from '../http/validate.js';

/** Money in minor units: a non-negative integer up to 10^11 (a billion in a 2-decimal currency). */
export const Money = z.number().int('must be an integer amount in minor units').min(0).max(100_000_000_000);
const Text = (max: number) => z.string().trim().min(1).max(max);
export const Handle = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters and digits separated by single hyphens');

const Option = z.strictObject({
  name: Text(255),
  values: z.array(Text(255)).min(1).max(100),
});

export const VariantInput = z.strictObject({
  id: IdString('variant').optional(),
  option_values: z.array(Text(255)).max(3).default([]),
  sku: Text(255).nullable().optional(),
  price: Money,
  compare_at_price: Money.nullable().optional(),
  weight_grams: z.number().int().min(0).max(10_000_000).nullable().optional(),
  inventory_tracked: z.boolean().default(true),
  inventory_policy: z.enum(['deny', 'continue']).default('deny'),
});
export type VariantInput = z.infer<typeof VariantInput>;

const ProductFields = {
  title: Text(255),
  handle: Handle,
  description_html: z.string().max(65_535),
  vendor: Text(255).nullable(),
  product_type: Text(255).nullable(),
  tags: z.array(Text(255)).max(250),
  status: z.enum(['draft', 'active', 'archived']),
  options: z.array(Option).max(3),
  variants: z.array(VariantInput).min(1).max(100),
  media_ids: z.array(IdString('media')).max(250),
};

export const CreateProductBody = z.strictObject({
  title: ProductFields.title,
  handle: ProductFields.handle.optional(),
  description_html: ProductFields.description_html.default(''),
  vendor: ProductFields.vendor.default(null),
  product_type: ProductFields.product_type.default(null),
  tags: ProductFields.tags.default([]),
  status: ProductFields.status.default('draft'),
  options: ProductFields.options.default([]),
  variants: ProductFields.variants,
  media_ids: ProductFields.media_ids.default([]),
});
export type CreateProductBody = z.infer<typeof CreateProductBody>;

export const UpdateProductBody = updateBody(ProductFields);
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

export const PRODUCT_SORTS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'title', '-title'] as const;

export const ListProductsQuery = z.strictObject({
  status: z.enum(['draft', 'active', 'archived']).optional(),
  query: z.string().trim().min(1).max(255).optional(),
  collection_id: IdString('collection').optional(),
  updated_since: z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .optional(),
  sort: z.enum(PRODUCT_SORTS).default('created_at'),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: KeysetCursorParam.optional(),
});
export type ListProductsQuery = z.infer<typeof ListProductsQuery>;

const Condition = z.discriminatedUnion('field', [
  z.strictObject({ field: z.literal('tag'), relation: z.enum(['equals', 'not_equals']), value: Text(255) }),
  z.strictObject({ field: z.literal('vendor'), relation: z.enum(['equals', 'not_equals']), value: Text(255) }),
  z.strictObject({ field: z.literal('product_type'), relation: z.enum(['equals', 'not_equals']), value: Text(255) }),
  z.strictObject({ field: z.literal('price'), relation: z.enum(['greater_than', 'less_than']), value: Money }),
]);

const ProductId = IdString('product');

const Rules = z.strictObject({ match: z.enum(['all', 'any']).default('all'), conditions: z.array(Condition).min(1).max(20) });

const CollectionFields = {
  title: Text(255),
  handle: Handle,
  description_html: z.string().max(65_535),
  product_ids: z.array(ProductId).max(5000),
  rules: Rules,
};

export const CreateCollectionBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('manual'),
    title: CollectionFields.title,
    handle: CollectionFields.handle.optional(),
    description_html: CollectionFields.description_html.default(''),
    product_ids: CollectionFields.product_ids.default([]),
  }),
  z.strictObject({
    type: z.literal('rule'),
    title: CollectionFields.title,
    handle: CollectionFields.handle.optional(),
    description_html: CollectionFields.description_html.default(''),
    rules: CollectionFields.rules,
  }),
]);
export type CreateCollectionBody = z.infer<typeof CreateCollectionBody>;

export const UpdateCollectionBody = updateBody(CollectionFields);
export type UpdateCollectionBody = z.infer<typeof UpdateCollectionBody>;
