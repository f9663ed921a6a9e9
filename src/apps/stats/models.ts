import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

/**
 * The counters behind the partner dashboard (docs/apps.md, Partner dashboard), each per app and
 * UTC day: installs and uninstalls (installs.ts), and installed apps' API calls by scope
 * (api-calls.ts).
 */
export const APP_INSTALL_DAYS = 'app_install_days';
export const APP_API_USAGE = 'app_api_usage';

/** `_id` `<app id>:<day>`. */
export type InstallDayDocument = { _id: string; app_id: ObjectId; day: string; installed: number; uninstalled: number };

/** `_id` `<app id>:<day>:<scope>`. */
export type AppUsageDocument = { _id: string; app_id: ObjectId; day: string; scope: string; calls: number };

export const statsIndexes: IndexDeclaration[] = [
  { collection: APP_INSTALL_DAYS, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] },
  { collection: APP_API_USAGE, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] },
];

export const installDays = (db: Db) => db.collection<InstallDayDocument>(APP_INSTALL_DAYS);
export const appUsage = (db: Db) => db.collection<AppUsageDocument>(APP_API_USAGE);
