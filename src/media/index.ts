import type { Module } from '../module.js';
import { MEDIA_ERROR_CODES } from './errors.js';
import { STORAGE_ERROR_CODES } from '../storage/index.js';
import { MEDIA_EVENT_TYPES } from './events.js';
import { mediaRoutes } from './routes.js';
import { MEDIA, mediaIndexes } from './models.js';
export { deleteMedia, findMedia, findMediaFiles, mediaByIds, uploadMedia } from './service.js';
export { UploadFields } from './schemas.js';
export type { MediaView } from './present.js';
export { findMediaFile, mediaRecordsByIds, urlFilename, type MediaRecord } from './public.js';
// The merchant admin's theme editor offers the store's images to a theme's image settings.
export { listMedia } from './service.js';

/** A store's images (and the local driver's signed file URLs): /v1/media. */
export const mediaModule: Module = {
  name: 'media',
  errorCodes: [...MEDIA_ERROR_CODES, ...STORAGE_ERROR_CODES],
  indexes: mediaIndexes,
  routes: [{ path: '/v1/media', router: mediaRoutes }],
  eventCarriers: [MEDIA],
  eventTypes: MEDIA_EVENT_TYPES,
};
