/**
 * The admin's sections, in the order of its left navigation (docs/admin.md, "Add a section"): a
 * section adds its item here when its pages exist, never before. `path` is under the store's
 * admin path (`/admin/stores/<id>`); `key` is what a page names as the section it is in.
 */
export const ADMIN_SECTIONS = [
  { key: 'home', label: 'Home', path: '' },
  { key: 'orders', label: 'Orders', path: '/orders' },
  { key: 'products', label: 'Products', path: '/products' },
  { key: 'customers', label: 'Customers', path: '/customers' },
  { key: 'discounts', label: 'Discounts', path: '/discounts' },
  { key: 'content', label: 'Content', path: '/content' },
  { key: 'themes', label: 'Online store', path: '/themes' },
  { key: 'apps', label: 'Apps', path: '/apps' },
  { key: 'settings', label: 'Settings', path: '/settings' },
] as const;

export type AdminSection = (typeof ADMIN_SECTIONS)[number]['key'];
