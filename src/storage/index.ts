export type { ObjectStorage, UploadedPart, StorageErrorCode } from './types.js';
export { isStorageKey, StorageError, MIN_PART_BYTES, MAX_PARTS, MAX_PART_BYTES, MAX_URL_EXPIRY_SECONDS } from './types.js';
export { LocalStorage } from './local.js';
export { S3Storage } from './s3.js';
export { createObjectStorage, objectStorage } from './select.js';
export { storageFileRoutes } from './routes.js';
export { STORAGE_ERROR_CODES } from './errors.js';
