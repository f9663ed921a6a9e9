import { ObjectId } from 'mongodb';
import type { Platform } from '../../platform.js';
import { installations } from '../installations/models.js';
import type { ExtensionKind } from '../manifest/types.js';
import { registrations, type RegistrationDocument } from './models.js';

/**
 * Runtime resolution (docs/extensions.md, Resolution): the rows of a store that count now are the
 * `enabled` rows of an active installation's current grant. A row revoked, disabled, of an
 * uninstalled installation or of an earlier grant counts for nothing at once, whether or not the
 * extensions worker has run. Read on every use (no cache), so a change shows on the next page
 * or checkout.
 */
export async function liveRows(
  platform: Platform,
  storeId: string,
  kind: ExtensionKind,
  filter: { app_handle?: { $in: string[] }; handle?: { $in: string[] }; target?: string } = {},
): Promise<RegistrationDocument[]> {
  const rows = await registrations(platform.db)
    .find({ store_id: new ObjectId(storeId), kind, state: 'enabled', ...filter })
    .toArray();
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.installation_id.toHexString()))].map((id) => new ObjectId(id));
  const active = await installations(platform.db)
    .find({ _id: { $in: ids }, store_id: new ObjectId(storeId), status: 'active' }, { projection: { _id: 1, grant_id: 1 } })
    .toArray();
  const grants = new Map(active.map((i) => [i._id.toHexString(), i.grant_id]));
  return rows.filter((r) => grants.get(r.installation_id.toHexString())?.equals(r.grant_id) === true);
}

/** What a theme app block renders from: its extension's config and the merchant's registry settings. */
export type ResolvedAppBlock = { config: Record<string, unknown>; settings: Record<string, string | number | boolean> };

/** `@app/<app handle>/<block handle>` → its app and block handle, or null (the bare `@app`, or anything else). */
export function appBlockRef(type: string): { app: string; block: string } | null {
  const m = /^@app\/([a-z0-9]+(?:-[a-z0-9]+)*)\/([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(type);
  return m ? { app: m[1]!, block: m[2]! } : null;
}

/**
 * The store's live theme app blocks among `types` (block types of a page), by type. A type that
 * names no live row of the store is missing from the map: it renders as a comment.
 */
export async function resolveAppBlocks(platform: Platform, storeId: string, types: readonly string[]): Promise<Map<string, ResolvedAppBlock>> {
  const refs = types.map(appBlockRef).filter((r): r is { app: string; block: string } => r !== null);
  if (refs.length === 0) return new Map();
  const rows = await liveRows(platform, storeId, 'theme_app_block', {
    app_handle: { $in: [...new Set(refs.map((r) => r.app))] },
    handle: { $in: [...new Set(refs.map((r) => r.block))] },
  });
  return new Map(rows.map((r) => [`@app/${r.app_handle}/${r.handle}`, { config: r.config, settings: r.settings }]));
}
