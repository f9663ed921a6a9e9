import type { Module } from '../module.js';
import { healthRoutes } from './routes.js';

/** GET /health (unversioned). */
export const healthModule: Module = { name: 'health', routes: [{ path: '/health', router: healthRoutes }] };
