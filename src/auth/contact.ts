import { ObjectId } from 'mongodb';
import type { Platform } from '../platform.js';
import { merchants } from './models.js';

/** Where a merchant account is written to (its sign-in email), or null for an id of no account. */
export async function merchantEmail(platform: Pick<Platform, 'db'>, merchantId: string): Promise<string | null> {
  if (!ObjectId.isValid(merchantId)) return null;
  const doc = await merchants(platform.db).findOne({ _id: new ObjectId(merchantId) }, { projection: { email: 1 } });
  return doc?.email ?? null;
}
