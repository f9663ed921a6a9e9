import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { ImageType } from './image.js';
import type { CarriesEvents } from '../events/index.js';

export const MEDIA = 'media';

export type MediaDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** Object storage key: `media/<store id>/<media id>.<ext>`. */
  storage_key: string;
  filename: string;
  content_type: ImageType;
  size: number;
  width: number;
  height: number;
  alt: string | null;
  created_at: Date;
} & CarriesEvents;

export const mediaIndexes: IndexDeclaration[] = [{ collection: MEDIA, indexes: [{ key: { store_id: 1, _id: 1 }, name: 'store_id_id' }] }];

export const media = (db: Db) => db.collection<MediaDocument>(MEDIA);
