/**
 * The scope registry (docs/apps.md, Scopes): what an app may ask for in its manifest and be
 * granted at install. Reads need `read_*`, every change `write_*`; a write scope implies its
 * read (normalisation adds it). The admin API's routes name the scope they need
 * (docs/conventions.md); the app API (`/v1/app/…`) likewise.
 */
export const SCOPES = {
  read_products: 'Products and collections',
  write_products: 'Create, change and delete products and collections',
  read_orders: 'Orders',
  write_orders: 'Create, fulfil, refund and cancel orders',
  read_customers: 'Customers and their addresses',
  write_customers: 'Create, change and delete customers and addresses',
  read_inventory: 'Inventory locations and levels',
  write_inventory: 'Change inventory locations and levels',
  read_themes: 'The store’s installed themes',
  write_themes: 'Change the store’s installed themes',
  read_gift_cards: 'Gift cards',
  write_gift_cards: 'Issue and disable gift cards',
  read_discounts: 'Coupons',
  write_discounts: 'Create, change and delete coupons',
  read_reviews: 'Product reviews',
  write_reviews: 'Moderate and answer product reviews',
  read_taxes: 'Tax settings',
  write_taxes: 'Change tax settings',
  read_shipping: 'Shipping rates',
  write_shipping: 'Change shipping rates',
  read_files: 'Media files',
  write_files: 'Upload and delete media files',
  read_form_submissions: 'Storefront form submissions',
  read_content: 'Pages, blog articles and navigation menus',
  write_content: 'Create, change and delete pages, blog articles and navigation menus',
  read_app_metadata: 'The app’s own metadata for the store',
  write_app_metadata: 'Change the app’s own metadata for the store',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES).sort() as Scope[];

export const isScope = (name: string): name is Scope => Object.hasOwn(SCOPES, name);

/** Sorted, deduplicated, each `write_x` with its `read_x` (when the registry has one). */
export function normaliseScopes(scopes: readonly string[]): string[] {
  const out = new Set(scopes);
  for (const s of scopes) {
    if (s.startsWith('write_')) {
      const read = `read_${s.slice('write_'.length)}`;
      if (isScope(read)) out.add(read);
    }
  }
  return [...out].sort();
}

/**
 * The scope a store topic needs for an app to receive it (docs/apps.md, App webhooks), by the
 * event type's family: an app hears of what it could read. `null`: no scope (the store's own
 * settings, which every installed app may read). Families not listed (webhook subscriptions,
 * payment providers, apps) are no app's topic.
 */
const TOPIC_SCOPES: Record<string, Scope | null> = {
  store: null,
  product: 'read_products',
  collection: 'read_products',
  order: 'read_orders',
  checkout: 'read_orders',
  payment_transaction: 'read_orders',
  customer: 'read_customers',
  customer_address: 'read_customers',
  inventory_level: 'read_inventory',
  inventory_location: 'read_inventory',
  theme: 'read_themes',
  gift_card: 'read_gift_cards',
  coupon: 'read_discounts',
  review: 'read_reviews',
  tax_settings: 'read_taxes',
  shipping_settings: 'read_shipping',
  media: 'read_files',
  form_submission: 'read_form_submissions',
  page: 'read_content',
  article: 'read_content',
  menu: 'read_content',
};

/** The scope an app needs to receive a store topic: a scope, null (none needed), or undefined (never an app's). */
export function topicScope(type: string): Scope | null | undefined {
  const family = type.split('.')[0]!;
  return Object.hasOwn(TOPIC_SCOPES, family) ? TOPIC_SCOPES[family] : undefined;
}
