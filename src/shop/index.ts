import type { Module } from '../module.js';
import { shopSite } from './site.js';
export { shopUrl } from './urls.js';

/**
 * The shop (docs/shop.md): each store as a website at `<subdomain>.<STOREFRONT_BASE_DOMAIN>`,
 * its pages rendered from its live theme, its cart in a cookie, its checkout and customer
 * accounts as pages, all acting through the storefront, orders and customers domains.
 */
export const shopModule: Module = {
  name: 'shop',
  site: shopSite,
};
