import { ObjectId } from 'mongodb';
import { findInStore, findManyInStore } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, type Page, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { objectStorage } from '../storage/index.js';
import { sanitizeFilename } from './filename.js';
import { inspectImage } from './image.js';
import { presentMedia, type MediaView } from './present.js';
import type { UploadFields } from './schemas.js';
import { MEDIA, media, type MediaDocument } from './models.js';
import { carried } from '../events/index.js';
import { parseObjectId } from '../ids.js';

/** How long the signed URL in a media response stays valid. */
export const URL_EXPIRY_SECONDS = 15 * 60;

const withUrl = async (platform: Platform, doc: MediaDocument) => presentMedia(doc, await objectStorage(platform).url(doc.storage_key, URL_EXPIRY_SECONDS));

/**
 * Store an uploaded image. The type comes from the bytes; anything but PNG, JPEG, GIF or WebP
 * is refused before anything is stored, as is a recognised image whose header is damaged.
 */
export async function uploadMedia(platform: Platform, storeId: string, file: { filename: string; bytes: Buffer }, fields: UploadFields): Promise<MediaView> {
  const check = inspectImage(file.bytes);
  if (!check.ok && check.reason === 'unsupported') {
    throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'Only PNG, JPEG, GIF and WebP images are accepted');
  }
  if (!check.ok) throw new PlatformError('invalid_data', 'invalid_image', 'The image is truncated or damaged');
  const { image } = check;
  const id = new ObjectId();
  const doc: MediaDocument = {
    _id: id,
    store_id: new ObjectId(storeId),
    storage_key: `media/${storeId}/${id.toHexString()}.${image.extension}`,
    filename: sanitizeFilename(file.filename, image),
    content_type: image.contentType,
    size: file.bytes.length,
    width: image.width,
    height: image.height,
    alt: fields.alt ? fields.alt : null,
    created_at: platform.clock.now(),
  };
  const pending = [platform.events.pending('media.created', doc.store_id, { media: presentMedia(doc) }, `media.created:${id.toHexString()}`)];
  const storage = objectStorage(platform);
  await storage.put(doc.storage_key, file.bytes, doc.content_type);
  try {
    await media(platform.db).insertOne({ ...doc, ...carried(pending) });
  } catch (err) {
    await storage.delete(doc.storage_key).catch(() => {});
    throw err;
  }
  await platform.events.settle(media(platform.db), id, pending);
  platform.log.info({ event: 'media.uploaded', store_id: storeId, media_id: id.toHexString(), size: doc.size, content_type: doc.content_type });
  return withUrl(platform, doc);
}

export async function listMedia(platform: Platform, storeId: string, page: Page): Promise<{ items: MediaView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(media(platform.db), { store_id: new ObjectId(storeId), ...afterCursor(page) }, page.limit);
  return { items: await Promise.all(items.map((d) => withUrl(platform, d))), nextCursor };
}

export async function getMedia(platform: Platform, storeId: string, mediaId: string): Promise<MediaView> {
  const doc = await findInStore(media(platform.db), storeId, mediaId, 'Media');
  return withUrl(platform, doc);
}

/**
 * Removes the stored object, then the document; the event is recorded by whoever removed the
 * document. Media never change after upload, so the event read before is the media as it went;
 * the intent is written before the stored object is removed.
 */
export async function deleteMedia(platform: Platform, storeId: string, mediaId: string): Promise<void> {
  const id = parseObjectId(mediaId);
  const filter = id ? { _id: id, store_id: new ObjectId(storeId) } : null;
  const doc = filter ? await media(platform.db).findOne(filter) : null;
  if (!filter || !doc) throw notFound('Media');
  // An event the media still carries (an upload whose process stopped) goes with the intent, not with the document.
  const pending = [
    ...(doc.pending_events ?? []),
    platform.events.pending('media.deleted', doc.store_id, { media: presentMedia(doc) }, `media.deleted:${doc._id.toHexString()}`),
  ];
  const removed = await platform.events.deleting(MEDIA, doc._id, pending, async () => {
    await objectStorage(platform).delete(doc.storage_key);
    const { deletedCount } = await media(platform.db).deleteOne(filter);
    return deletedCount === 1;
  });
  if (!removed) throw notFound('Media');
}

/** Which of `ids` are media of the store (ids that are not ids, or another store's, are left out). */
export async function findMedia(platform: Pick<Platform, 'db'>, storeId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)].map(parseObjectId).filter((id): id is ObjectId => id !== null);
  if (wanted.length === 0) return [];
  const docs = await media(platform.db)
    .find({ store_id: new ObjectId(storeId), _id: { $in: wanted } }, { projection: { _id: 1 } })
    .toArray();
  return docs.map((d) => d._id.toHexString());
}

/**
 * Media files by id among the given stores (another domain's reference to stored bytes, e.g. a
 * theme's asset): each found one with its storage key, content type and size.
 */
export async function findMediaFiles(
  platform: Pick<Platform, 'db'>,
  storeIds: readonly string[],
  ids: readonly string[],
): Promise<{ id: string; storage_key: string; content_type: string; size: number }[]> {
  const wanted = [...new Set(ids)].map(parseObjectId).filter((id): id is ObjectId => id !== null);
  if (wanted.length === 0 || storeIds.length === 0) return [];
  const docs = await media(platform.db)
    .find(
      { store_id: { $in: storeIds.map((s) => new ObjectId(s)) }, _id: { $in: wanted } },
      { projection: { _id: 1, storage_key: 1, content_type: 1, size: 1 } },
    )
    .toArray();
  return docs.map((d) => ({ id: d._id.toHexString(), storage_key: d.storage_key, content_type: d.content_type, size: d.size }));
}

/** The store's media files by id, with their URLs (GraphQL's loader: a page of products' media in one read). */
export async function mediaByIds(platform: Platform, storeId: string, ids: readonly string[]): Promise<Map<string, MediaView>> {
  const docs = await findManyInStore(media(platform.db), storeId, ids);
  return new Map(await Promise.all(docs.map(async (d) => [d._id.toHexString(), await withUrl(platform, d)] as const)));
}
