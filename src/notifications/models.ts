import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { NotificationKind } from './defaults.js';

export const NOTIFICATION_TEMPLATES = 'notification_templates';

/** A store's own template for one notification, in place of the default (one per store and kind); deleted: the default again. */
export type NotificationTemplateDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  kind: NotificationKind;
  subject: string;
  text: string;
  html: string;
  version: number;
  created_at: Date;
  updated_at: Date;
};

export const notificationIndexes: IndexDeclaration[] = [
  { collection: NOTIFICATION_TEMPLATES, indexes: [{ key: { store_id: 1, kind: 1 }, name: 'store_kind_unique', unique: true }] },
];

export const notificationTemplates = (db: Db) => db.collection<NotificationTemplateDocument>(NOTIFICATION_TEMPLATES);
