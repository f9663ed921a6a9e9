import { isScope, type Scope } from './scopes.js';

/**
 * Each scope in plain words, as the consent page tells a merchant what an app will be able to do
 * (docs/console.md, The consent page). Typed by the registry: a scope added to src/apps/oauth/scopes.ts
 * without its sentence here does not compile.
 */
export const CONSENT_WORDS: Record<Scope, string> = {
  read_products: 'See your products and collections',
  write_products: 'Create, change and delete your products and collections',
  read_orders: 'See your orders',
  write_orders: 'Create, fulfil, refund and cancel your orders',
  read_customers: 'See your customers and their addresses',
  write_customers: 'Create, change and delete your customers and their addresses',
  read_inventory: 'See your inventory locations and stock levels',
  write_inventory: 'Change your inventory locations and stock levels',
  read_themes: 'See your store’s installed themes',
  write_themes: 'Change your store’s installed themes',
  read_gift_cards: 'See your gift cards',
  write_gift_cards: 'Issue and disable gift cards',
  read_discounts: 'See your coupons',
  write_discounts: 'Create, change and delete coupons',
  read_reviews: 'See your product reviews',
  write_reviews: 'Moderate and answer product reviews',
  read_taxes: 'See your tax settings',
  write_taxes: 'Change your tax settings',
  read_shipping: 'See your shipping rates',
  write_shipping: 'Change your shipping rates',
  read_files: 'See your media files',
  write_files: 'Upload and delete media files',
  read_form_submissions: 'See what shoppers send through your storefront’s forms',
  read_content: 'See your pages, blog articles and navigation menus',
  write_content: 'Create, change and delete your pages, blog articles and navigation menus',
  read_app_metadata: 'See the settings it keeps for your store',
  write_app_metadata: 'Change the settings it keeps for your store',
};

/** A scope's sentence (a name the registry does not know is shown as it is). */
export const consentSentence = (scope: string): string => (isScope(scope) ? CONSENT_WORDS[scope] : scope);
