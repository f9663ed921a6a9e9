import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { ExtensionKind } from '../manifest/types.js';

export const REGISTRATIONS = 'app_extension_registrations';

/** spec 2.3: a row is `enabled` or `disabled` by the merchant, and `revoked` for good (an uninstall, or the app's new version dropped it). */
export type RegistrationState = 'enabled' | 'disabled' | 'revoked';

/** Who made a row's last transition. */
export type TransitionActor = { type: 'merchant'; id: ObjectId } | { type: 'platform'; id: null };

export type Transition = {
  from: RegistrationState | null;
  to: RegistrationState;
  at: Date;
  by: TransitionActor;
  /** `installed`, `merchant`, `uninstalled`, `removed_from_app` (the app's published version no longer declares it). */
  reason: 'installed' | 'merchant' | 'uninstalled' | 'removed_from_app';
};

/**
 * One extension or Checkout Function of an installation's grant (docs/extensions.md, The
 * registry): per store and installation, from the manifest the grant was authorized on. A
 * re-install (a new grant) has fresh rows; revoked ones stay as history. Unique per
 * installation, grant, handle and `revoked_at` (null while live): one live row per handle.
 */
export type RegistrationDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  installation_id: ObjectId;
  app_id: ObjectId;
  /** The app's handle (it never changes): how a theme names its blocks, `@app/<app handle>/<block handle>`. */
  app_handle: string;
  grant_id: ObjectId;
  /** The app version whose manifest the row was last reconciled with. */
  app_version_id: ObjectId;
  manifest_schema_version: string;
  kind: ExtensionKind;
  handle: string;
  name: string;
  target: string;
  /** The manifest's config of the extension, as declared. */
  config: Record<string, unknown>;
  /** The merchant's values of the settings the manifest declares editable (`config.settings`), each of its declared type. */
  settings: Record<string, string | number | boolean>;
  /** A validation function the merchant marked blocking: its messages stop checkout (other functions only advise). */
  blocking: boolean;
  state: RegistrationState;
  revoked_at: Date | null;
  last_transition: Transition;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const registrationIndexes: IndexDeclaration[] = [
  {
    collection: REGISTRATIONS,
    indexes: [
      { key: { installation_id: 1, grant_id: 1, handle: 1, revoked_at: 1 }, name: 'installation_grant_handle_revoked_unique', unique: true },
      { key: { installation_id: 1, _id: 1 }, name: 'installation_id_id' },
      { key: { store_id: 1, kind: 1, state: 1, app_handle: 1, handle: 1 }, name: 'store_kind_state_app_handle' },
    ],
  },
];

export const registrations = (db: Db) => db.collection<RegistrationDocument>(REGISTRATIONS);
