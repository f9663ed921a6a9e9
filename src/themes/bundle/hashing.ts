import { createHash } from 'node:crypto';
import type { ObjectId } from 'mongodb';
import type { ThemeBundle } from './types.js';

/** JSON with its object keys sorted: the form a bundle is hashed in, so the same bundle always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const bundleHash = (bundle: ThemeBundle) => createHash('sha256').update(canonicalJson(bundle), 'utf8').digest('hex');

/** Where a version's asset lives in object storage. */
export const assetKey = (packageId: ObjectId, versionId: ObjectId, path: string) => `themes/${packageId.toHexString()}/${versionId.toHexString()}/${path}`;
