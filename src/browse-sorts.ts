/* Without imports: the render threads read it (src/rendering/listing.ts) without loading the catalog module. */

/** Shopify's `sort_by` values the platform can honour (best-selling is left out: it keeps no units sold per product). */
export const BROWSE_SORTS = [
  'manual',
  'title-ascending',
  'title-descending',
  'price-ascending',
  'price-descending',
  'created-ascending',
  'created-descending',
] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];
