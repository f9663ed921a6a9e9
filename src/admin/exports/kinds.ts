import { Kind, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';

/**
 * What the admin's Export exports (docs/admin.md, Exports): for each list, one bulk query of the
 * admin API with a fixed set of fields (the columns a merchant reads back, and each object's
 * nested lines: a product's variants, an order's lines), all of the store's objects or those
 * matching the list's search when the admin API's root connection takes that search (`query:`:
 * products and customers; orders take none).
 */

export const EXPORT_KEYS = ['products', 'orders', 'customers'] as const;

export type ExportKind = {
  key: (typeof EXPORT_KEYS)[number];
  /** What a line of the file holds, for the Export page. */
  fields: readonly { what: string; names: string }[];
  /** The root connection's selection. */
  selection: string;
  /** The longest search the root connection takes as its `query:` (the list's `?query=`, the REST list's bound), or null: it takes none. */
  searchMax: number | null;
  /** The list's filters a bulk query cannot express: the Export page says they are not applied. */
  otherFilters: readonly string[];
};

export const EXPORT_KINDS: readonly ExportKind[] = [
  {
    key: 'products',
    fields: [
      { what: 'A line per product', names: 'id, title, handle, status, vendor, productType, tags, createdAt, updatedAt' },
      { what: 'A line per variant, after its product (__parentId)', names: 'id, title, sku, price, compareAtPrice, inventoryTracked, inventoryPolicy' },
    ],
    selection:
      'id title handle status vendor productType tags createdAt updatedAt variants { nodes { id title sku price { amount currencyCode } compareAtPrice { amount } inventoryTracked inventoryPolicy } }',
    searchMax: 255,
    otherFilters: ['status', 'collection_id'],
  },
  {
    key: 'orders',
    fields: [
      {
        what: 'A line per order',
        names:
          'id, name, email, customer id, createdAt, financialStatus, fulfillmentStatus, cancelledAt, subtotal, totalDiscounts, totalShipping, totalTax, total, totalRefunded',
      },
      { what: 'A line per order line, after its order (__parentId)', names: 'id, title, variantTitle, sku, quantity, unitPrice, total' },
    ],
    selection:
      'id name email customer { id } createdAt financialStatus fulfillmentStatus cancelledAt subtotal { amount currencyCode } totalDiscounts { amount } totalShipping { amount } totalTax { amount } total { amount } totalRefunded { amount } lineItems { nodes { id title variantTitle sku quantity unitPrice { amount } total { amount } } }',
    searchMax: null,
    otherFilters: ['q', 'customer_id', 'status', 'financial_status', 'fulfillment_status', 'created_at_min', 'created_at_max'],
  },
  {
    key: 'customers',
    fields: [
      {
        what: 'A line per customer',
        names:
          'id, email, firstName, lastName, phone, acceptsMarketing, tags, numberOfOrders, amountSpent, default address (address1, city, provinceCode, countryCode, zip), createdAt',
      },
    ],
    selection:
      'id email firstName lastName phone acceptsMarketing tags numberOfOrders amountSpent { amount currencyCode } defaultAddress { address1 city provinceCode countryCode zip } createdAt',
    searchMax: 100,
    otherFilters: [],
  },
];

export const exportKind = (key: ExportKind['key']): ExportKind => EXPORT_KINDS.find((k) => k.key === key)!;

/** The bulk query of a kind: all its objects, or those the search finds (a GraphQL string: JSON's escapes are GraphQL's). */
export const exportQuery = (kind: ExportKind, search: string | null): string =>
  `{ ${kind.key}${search ? `(query: ${JSON.stringify(search)})` : ''} { nodes { ${kind.selection} } } }`;

/**
 * What an operation of the store exports, in words, from its query (a merchant's API call or an
 * app may have started it with a query of its own): the root connection, the search it took, and
 * whether its fields are the admin's Export's. Its query was checked when it started.
 */
export function describeExport(query: string): { noun: string; search: string | null; custom: boolean } {
  let root: FieldNode | undefined;
  try {
    const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    root = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
  } catch {
    root = undefined;
  }
  if (!root) return { noun: 'objects', search: null, custom: true };
  const arg = root.arguments?.find((a) => a.name.value === 'query')?.value;
  const search = arg?.kind === Kind.STRING ? arg.value : null;
  const kind = EXPORT_KINDS.find((k) => k.key === root.name.value);
  return { noun: root.name.value, search, custom: !kind || exportQuery(kind, search) !== query };
}
