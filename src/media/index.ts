import type { Module } from '../module.js';
import { mediaRoutes } from './routes.js';
import { MEDIA, mediaIndexes } from './store.js';
export { findMedia, findMediaFiles } from './service.js';
export type { MediaView } from './present.js';

/** A store's images (and the local driver's signed file URLs): /v1/media. */
export const mediaModule: Module = {
  name: 'media',
  indexes: mediaIndexes,
  routes: [{ path: '/v1/media', router: mediaRoutes }],
  eventCarriers: [MEDIA],
  eventTypes: ['media.created', 'media.deleted'],
};
