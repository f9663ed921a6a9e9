export type { ObjectStorage } from './types.js';
export { isStorageKey } from './types.js';
export { LocalStorage } from './local.js';
export { S3Storage, S3Error } from './s3.js';
export { createObjectStorage, objectStorage } from './select.js';
export { storageFileRoutes } from './routes.js';
export { STORAGE_ERROR_CODES } from './errors.js';
