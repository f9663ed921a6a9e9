import type { Module } from '../module.js';
import { adminPages } from './pages.js';

/**
 * The merchant admin (docs/admin.md): server-rendered pages at `/admin` for a merchant signed in
 * in a browser, reading and acting only through the other domains' services (the same the REST
 * API uses), one feature folder per section.
 */
export const adminModule: Module = {
  name: 'admin',
  pages: [{ path: '/admin', router: adminPages }],
};
