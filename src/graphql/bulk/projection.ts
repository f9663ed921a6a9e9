import { TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { ViewReads } from '../admin/context.js';

/**
 * Which fields of its objects' documents a bulk export's query reads (docs/bulk.md, The export):
 * what each admin field is resolved from, of the views of products, collections, customers and
 * orders (src/projection.ts). It mirrors the admin resolvers (src/graphql/admin/<domain>.ts); a
 * field missing here has its kind of object read whole, and test/graphql/bulk.test.ts exports
 * every field and compares it with the admin API's answer.
 */
type Source = keyof ViewReads;
type Fields<S extends Source> = NonNullable<ViewReads[S]>;

const PRODUCT: Record<string, Fields<'products'>> = {
  id: [],
  legacyResourceId: [],
  title: ['title'],
  handle: ['handle'],
  descriptionHtml: ['description_html'],
  vendor: ['vendor'],
  productType: ['product_type'],
  tags: ['tags'],
  status: ['status'],
  options: ['options'],
  variants: ['variants', 'options'],
  priceRange: ['price_min', 'price_max', 'currency'],
  media: ['media_ids'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
};
const COLLECTION: Record<string, Fields<'collections'>> = {
  id: [],
  legacyResourceId: [],
  title: ['title'],
  handle: ['handle'],
  descriptionHtml: ['description_html'],
  type: ['type'],
  products: [],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
};
const CUSTOMER: Record<string, Fields<'customers'>> = {
  id: [],
  legacyResourceId: [],
  email: ['email'],
  firstName: ['first_name'],
  lastName: ['last_name'],
  phone: ['phone'],
  acceptsMarketing: ['accepts_marketing'],
  tags: ['tags'],
  note: ['note'],
  numberOfOrders: ['orders_count'],
  amountSpent: ['total_spent', 'currency'],
  defaultAddress: ['default_address_id'],
  addresses: [],
  orders: [],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
};
const money = (field: Fields<'orders'>[number]): Fields<'orders'> => [field, 'currency'];
const ORDER: Record<string, Fields<'orders'>> = {
  id: [],
  legacyResourceId: [],
  name: ['number'],
  number: ['number'],
  email: ['email'],
  currencyCode: ['currency'],
  customer: ['customer_id'],
  lineItems: ['line_items', 'currency'],
  shippingLine: ['shipping_line', 'currency'],
  shippingAddress: ['shipping_address'],
  billingAddress: ['billing_address'],
  subtotal: money('subtotal'),
  totalDiscounts: money('discount_total'),
  totalShipping: money('shipping_total'),
  totalTax: money('tax_total'),
  total: money('total'),
  totalPaid: money('paid_amount'),
  totalRefunded: money('refunded_amount'),
  financialStatus: ['financial_status'],
  fulfillmentStatus: ['fulfillment_status'],
  fulfillments: ['fulfillments'],
  refunds: ['refunds', 'currency'],
  transactions: [],
  note: ['note'],
  sourceName: ['source'],
  cancelledAt: ['cancelled_at'],
  cancelReason: ['cancel_reason'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at'],
};

/**
 * By admin type: the kind of object its fields are read from, and what each field reads of it
 * (`fields`), or what every field does (`every`: a variant is read from its product, wherever it
 * is reached from; a line item from its order).
 */
const TYPES = new Map<string, { source: Source; fields?: ReadonlyMap<string, readonly string[]>; every?: readonly string[] }>([
  ['Product', { source: 'products', fields: new Map(Object.entries(PRODUCT)) }],
  ['ProductVariant', { source: 'products', every: ['variants', 'options'] satisfies Fields<'products'> }],
  ['Collection', { source: 'collections', fields: new Map(Object.entries(COLLECTION)) }],
  ['Customer', { source: 'customers', fields: new Map(Object.entries(CUSTOMER)) }],
  ['Order', { source: 'orders', fields: new Map(Object.entries(ORDER)) }],
  ['LineItem', { source: 'orders', every: ['line_items', 'currency'] satisfies Fields<'orders'> }],
]);

/** The fields of each kind of object a query's selections read; a kind one of whose selected fields is not known here is read whole. */
export function readsOf(schema: GraphQLSchema, document: DocumentNode): ViewReads {
  const read = new Map<Source, Set<string> | null>();
  const types = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(types, {
      Field(node) {
        const type = TYPES.get(types.getParentType()?.name ?? '');
        if (!type || node.name.value === '__typename') return;
        const fields = type.every ?? type.fields?.get(node.name.value);
        const sofar = read.has(type.source) ? read.get(type.source)! : new Set<string>();
        read.set(type.source, fields && sofar ? new Set([...sofar, ...fields]) : null);
      },
    }),
  );
  const reads: ViewReads = {};
  for (const [source, fields] of read) if (fields) Object.assign(reads, { [source]: [...fields] });
  return reads;
}

/**
 * Connections whose items are stored in their parent's document (a product's variants, at most
 * 100; an order's line items, at most 250): reading them costs no read but their parent's, so a
 * bulk export reads them with their parents' page; it reads the others apart.
 */
const CARRIED = new Set(['Product.variants', 'Order.lineItems']);
export const isCarried = (type: string, field: string): boolean => CARRIED.has(`${type}.${field}`);
