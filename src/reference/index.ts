import type { Module } from '../module.js';
import { referenceRoutes } from './routes.js';

/**
 * `GET /docs/<page>.md` (unversioned, public): the platform's reference pages, the repository's
 * `docs/` folder as Markdown, so the links the API itself prints resolve (the OAuth discovery
 * document's `service_documentation`, docs/oauth.md).
 */
export const referenceModule: Module = {
  name: 'reference',
  routes: [{ path: '/docs', router: referenceRoutes }],
};
