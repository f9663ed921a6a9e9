import type { Module } from '../module.js';
import { healthRoutes, readinessRoutes } from './routes.js';

/** GET /health and GET /ready (unversioned). */
export const healthModule: Module = {
  name: 'health',
  routes: [
    { path: '/health', router: healthRoutes, probe: true },
    { path: '/ready', router: readinessRoutes, probe: true },
  ],
};
