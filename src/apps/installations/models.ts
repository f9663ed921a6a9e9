import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { BridgeCapability } from '../manifest/types.js';

export const INSTALLATIONS = 'app_installations';

export type InstallationStatus = 'active' | 'uninstalled';

/**
 * One app in one store (unique per app and store). Each install (the first, or one after an
 * uninstall) starts a new `grant_id`: every code and token carries the grant it was issued
 * under, and only the current grant of an active installation is honoured, so an uninstall
 * kills every token at once and a re-install never revives an old one.
 */
export type InstallationDocument = {
  _id: ObjectId;
  app_id: ObjectId;
  store_id: ObjectId;
  status: InstallationStatus;
  grant_id: ObjectId;
  /** Granted scopes (normalised: sorted, deduplicated, each write scope with its read). */
  scopes: string[];
  webhook_url: string;
  /** The merchant account that authorized the current grant. */
  installed_by: ObjectId;
  /** The app's own JSON object for this store (`/v1/app/installation/metadata`). */
  metadata: Record<string, unknown>;
  metadata_version: number;
  version: number;
  installed_at: Date;
  uninstalled_at: Date | null;
  /**
   * After an uninstall: when the app is due `shop.redact` (uninstalled_at plus
   * APP_SHOP_REDACT_DELAY_SECONDS); unset once it is sent, or by a re-install first.
   */
  shop_redact_due_at?: Date | null;
  /** When `shop.redact` was recorded for the last uninstall. */
  shop_redacted_at?: Date | null;
  created_at: Date;
  updated_at: Date;
  /**
   * The merchant's bridge capability settings for this store (bridge/embedding.ts), one entry per
   * capability set. A list, not a map: capability names contain `.`, which a field name must not.
   */
  bridge_capabilities?: BridgeCapabilitySetting[];
  /** The install config of the admin embed: the merchant's embed URL, first in the URL's resolution (bridge/embedding.ts). */
  embed?: { url: string } | null;
  /**
   * The revocation of the installation's extension rows that an uninstall asks of the extensions
   * worker (apps/extensions/revocation.ts): set `pending` by the uninstall's own write, so no
   * uninstall is without it; `done` once every row of a grant no longer active is revoked.
   */
  extension_revocation?: ExtensionRevocation | null;
} & CarriesEvents;

export type ExtensionRevocation = {
  status: 'pending' | 'done';
  requested_at: Date;
  /** The worker holding it, and until when (a dead worker's is taken again after). */
  lease_until: Date | null;
  lease_owner: string | null;
  runs: number;
  rows_revoked: number;
  done_at: Date | null;
};

export type BridgeCapabilitySetting = { capability: BridgeCapability; enabled: boolean };

export const installationIndexes: IndexDeclaration[] = [
  {
    collection: INSTALLATIONS,
    indexes: [
      { key: { app_id: 1, store_id: 1 }, name: 'app_id_store_id_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { shop_redact_due_at: 1 }, name: 'shop_redact_due_at' },
      { key: { 'extension_revocation.status': 1 }, name: 'extension_revocation_status' },
    ],
  },
];

export const installations = (db: Db) => db.collection<InstallationDocument>(INSTALLATIONS);
