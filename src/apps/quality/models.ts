import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

export const QUALITY_CHECKS = 'app_quality_checks';

/**
 * The quality checks the extensions worker runs for a published app version (docs/extensions.md,
 * Quality gates): each declared app block rendered, and the privacy policy URL fetched. One per
 * app (`_id` is the app's id), replaced by each run.
 */
export type QualityCheckDocument = {
  _id: ObjectId;
  /** The published version the checks ran on. */
  app_version_id: ObjectId;
  checked_at: Date;
  app_blocks: { handle: string; ok: boolean; problems: string[] }[];
  privacy_url: { url: string; ok: boolean; status: number | null; error: string | null };
};

export const qualityIndexes: IndexDeclaration[] = [{ collection: QUALITY_CHECKS, indexes: [{ key: { checked_at: 1 }, name: 'checked_at' }] }];

export const qualityChecks = (db: Db) => db.collection<QualityCheckDocument>(QUALITY_CHECKS);
