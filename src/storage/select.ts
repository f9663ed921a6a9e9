import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Platform } from '../platform.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { ObjectStorage } from './types.js';

export function createObjectStorage(config: Config, clock: Clock): ObjectStorage {
  const { storage } = config;
  if (storage.driver === 's3' && storage.s3) return new S3Storage(storage.s3, clock);
  return new LocalStorage(storage.localDir, storage.publicBaseUrl, config.secretsKeys, clock);
}

const byPlatform = new WeakMap<Platform, ObjectStorage>();

/**
 * The platform's object storage, chosen by STORAGE_DRIVER, one instance per platform. (It is
 * built from config and the clock alone, so it lives beside the platform rather than in it.)
 */
export function objectStorage(platform: Platform): ObjectStorage {
  let storage = byPlatform.get(platform);
  if (!storage) {
    storage = createObjectStorage(platform.config, platform.clock);
    byPlatform.set(platform, storage);
  }
  return storage;
}
