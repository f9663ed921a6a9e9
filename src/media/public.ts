import { ObjectId } from 'mongodb';
import type { Readable } from 'node:stream';
import { parseObjectId } from '../ids.js';
import type { Platform } from '../platform.js';
import { objectStorage } from '../storage/index.js';
import { EXTENSIONS, type ImageType } from './image.js';
import { media, type MediaDocument } from './models.js';

/**
 * Media as other domains show them to the public (the storefront's product images): what an
 * `<img>` needs, no storage key and no signed URL. Media never change after upload, so a media
 * id names one file for good: a URL built from it can be cached forever.
 */
export type MediaRecord = {
  id: string;
  /** The file name as a URL path segment: ASCII letters, digits, `.`, `_` and `-`, ending in the type's extension. */
  url_filename: string;
  content_type: ImageType;
  size: number;
  width: number;
  height: number;
  alt: string | null;
};

const ACCEPTED = new Set<string>(Object.keys(EXTENSIONS));
const MAX_URL_BASE = 100;

/**
 * The media's file name made fit for a URL path: accents dropped, anything but ASCII letters,
 * digits, `.`, `_` and `-` becomes `-`, at most 100 characters before the extension, which is the
 * stored object's (`Red shoe (1).JPEG` → `Red-shoe-1.jpg`).
 */
export function urlFilename(filename: string, storageKey: string): string {
  const extension = storageKey.slice(storageKey.lastIndexOf('.') + 1);
  const dot = filename.lastIndexOf('.');
  const base = (dot > 0 ? filename.slice(0, dot) : filename)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, MAX_URL_BASE)
    .replace(/[-.]+$/, '');
  return `${base || 'image'}.${extension}`;
}

const record = (d: MediaDocument): MediaRecord => ({
  id: d._id.toHexString(),
  url_filename: urlFilename(d.filename, d.storage_key),
  content_type: d.content_type,
  size: d.size,
  width: d.width,
  height: d.height,
  alt: d.alt,
});

/** The store's media by id, without URLs, in one read (a page of products' images); ids that are not the store's media are absent. */
export async function mediaRecordsByIds(platform: Pick<Platform, 'db'>, storeId: string, ids: readonly string[]): Promise<Map<string, MediaRecord>> {
  const wanted = [...new Set(ids)].map(parseObjectId).filter((id): id is ObjectId => id !== null);
  if (wanted.length === 0) return new Map();
  const docs = await media(platform.db)
    .find({ store_id: new ObjectId(storeId), _id: { $in: wanted } })
    .toArray();
  return new Map(docs.map((d) => [d._id.toHexString(), record(d)]));
}

/**
 * One media file of the store, to serve to the public: its record and a way to open its bytes as a
 * stream (null when the stored object is gone), or null for an id that is not one of the store's
 * media. Only the four accepted image types are ever served.
 */
export async function findMediaFile(
  platform: Platform,
  storeId: string,
  mediaId: string,
): Promise<{ media: MediaRecord; open(): Promise<{ stream: Readable; size: number } | null> } | null> {
  const id = parseObjectId(mediaId);
  if (!id) return null;
  const doc = await media(platform.db).findOne({ store_id: new ObjectId(storeId), _id: id });
  if (!doc || !ACCEPTED.has(doc.content_type)) return null;
  return {
    media: record(doc),
    async open() {
      const object = await objectStorage(platform).open(doc.storage_key);
      return object ? { stream: object.stream, size: object.size } : null;
    },
  };
}
