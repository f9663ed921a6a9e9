import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { carrying } from '../../events/index.js';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import type { PublishedApp } from '../app-store/service.js';
import { installations, type InstallationDocument } from '../installations/models.js';
import { LIFECYCLE_CONTRACT_VERSION, MANIFEST_SCHEMA_VERSION, type ExtensionKind, type ManifestExtension } from '../manifest/types.js';
import { apps } from '../partners/models.js';
import { presentRegistration, type RegistrationView } from './present.js';
import type { UpdateRegistrationBody } from './schemas.js';
import { registrations, type RegistrationDocument, type RegistrationState, type Transition } from './models.js';

/**
 * The state a row starts in (docs/extensions.md, Initial state): what changes only the
 * merchant's own admin, or shows only where the merchant places it, is on; what changes the
 * checkout every shopper sees waits for the merchant to switch it on.
 */
export const INITIAL_STATE: Record<ExtensionKind, Exclude<RegistrationState, 'revoked'>> = {
  admin_ui: 'enabled',
  theme_app_block: 'enabled',
  checkout_ui: 'disabled',
  checkout_function: 'disabled',
};

/** How often a row's write retries when a concurrent write changed it first. */
const WRITE_ATTEMPTS = 3;
/** The rows one installation's list shows at most: the current grant's, then the newest history. */
export const MAX_LISTED_ROWS = 200;

type Setting = string | number | boolean;

/** The settings an extension declares editable: `config.settings`, a flat object of defaults (strings, numbers, booleans); anything else declares none. */
export function declaredSettings(config: Record<string, unknown>): Map<string, Setting> {
  const raw = config.settings;
  const out = new Map<string, Setting>();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out.set(key, value);
  }
  return out;
}

/** The merchant's values kept where the manifest still declares the key with the same type; the manifest's defaults elsewhere. */
function mergedSettings(declared: Map<string, Setting>, current: Record<string, Setting>): Record<string, Setting> {
  const mine = new Map(Object.entries(current));
  return Object.fromEntries([...declared].map(([key, fallback]) => [key, typeof mine.get(key) === typeof fallback ? mine.get(key)! : fallback]));
}

const platformActor = { type: 'platform' as const, id: null };

/**
 * Brings an active installation's rows in line with the manifest its grant was authorized on
 * (after an install, a re-install or a re-authorization): a row for each extension the manifest
 * declares that has none (in its kind's initial state), the definition of the others refreshed
 * (the merchant's state and settings kept), and rows the manifest no longer declares (or
 * declares with another kind) revoked. Safe to run again and concurrently: one live row per
 * handle is the unique index's to keep.
 */
export async function reconcileRegistry(platform: Platform, app: PublishedApp, installation: InstallationDocument): Promise<void> {
  const coll = registrations(platform.db);
  const declared = new Map(app.published.extensions.map((e) => [e.handle, e]));
  const live = await coll.find({ installation_id: installation._id, grant_id: installation.grant_id, revoked_at: null }).toArray();
  const kept = new Set<string>();
  for (const row of live) {
    const extension = declared.get(row.handle);
    if (extension && extension.kind === row.kind) {
      kept.add(row.handle);
      await refreshDefinition(platform, row, extension, app.published_version_id!);
    } else {
      await revokeRow(platform, row, 'removed_from_app');
    }
  }
  for (const extension of app.published.extensions) {
    if (kept.has(extension.handle)) continue;
    const now = platform.clock.now();
    const state = INITIAL_STATE[extension.kind];
    const doc: RegistrationDocument = {
      _id: new ObjectId(),
      store_id: installation.store_id,
      installation_id: installation._id,
      app_id: installation.app_id,
      app_handle: app.handle,
      grant_id: installation.grant_id,
      app_version_id: app.published_version_id!,
      manifest_schema_version: MANIFEST_SCHEMA_VERSION,
      kind: extension.kind,
      handle: extension.handle,
      name: extension.name,
      target: extension.target,
      config: extension.config,
      settings: Object.fromEntries(declaredSettings(extension.config)),
      blocking: false,
      state,
      revoked_at: null,
      last_transition: { from: null, to: state, at: now, by: platformActor, reason: 'installed' },
      version: 1,
      created_at: now,
      updated_at: now,
    };
    try {
      await coll.insertOne(doc);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // made by a concurrent reconciliation
    }
  }
}

async function refreshDefinition(platform: Platform, first: RegistrationDocument, extension: ManifestExtension, versionId: ObjectId): Promise<void> {
  const coll = registrations(platform.db);
  let row: RegistrationDocument | null = first;
  for (let attempt = 1; row && attempt <= WRITE_ATTEMPTS; attempt++) {
    const settings = mergedSettings(declaredSettings(extension.config), row.settings);
    const same =
      row.app_version_id.equals(versionId) &&
      row.name === extension.name &&
      row.target === extension.target &&
      JSON.stringify(row.config) === JSON.stringify(extension.config) &&
      JSON.stringify(row.settings) === JSON.stringify(settings);
    if (same) return;
    const set = {
      app_version_id: versionId,
      name: extension.name,
      target: extension.target,
      config: extension.config,
      settings,
      updated_at: platform.clock.now(),
    };
    const written = await coll.updateOne({ _id: row._id, version: row.version, revoked_at: null }, { $set: set, $inc: { version: 1 } });
    if (written.matchedCount === 1) return;
    row = await coll.findOne({ _id: row._id, revoked_at: null });
  }
}

/** Revokes one live row (the app's new version dropped it): once; a row revoked meanwhile stays as it is. */
async function revokeRow(platform: Platform, row: RegistrationDocument, reason: Transition['reason']): Promise<void> {
  const now = platform.clock.now();
  await registrations(platform.db).updateOne(
    { _id: row._id, revoked_at: null, state: row.state },
    {
      $set: { state: 'revoked', revoked_at: now, updated_at: now, last_transition: { from: row.state, to: 'revoked', at: now, by: platformActor, reason } },
      $inc: { version: 1 },
    },
  );
}

/** Who asks: the store's merchant, or an app's token (which sees its own installation only). */
export type RegistryCaller = { kind: 'merchant' } | { kind: 'app'; installationId: string };

/** The installation of the store that the caller may see, or 404 (another store's, another app's, a malformed id). */
export async function visibleInstallation(platform: Platform, storeId: string, installationId: string, caller: RegistryCaller): Promise<InstallationDocument> {
  const id = parseObjectId(installationId);
  const found = id ? await installations(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!found) throw notFound('Installation');
  if (caller.kind === 'app' && (caller.installationId !== installationId || found.status !== 'active')) throw notFound('Installation');
  return found;
}

/** An installation's rows: the current grant's first (oldest first), then earlier grants' history (newest first), MAX_LISTED_ROWS at most. */
export async function installationRows(platform: Platform, installation: InstallationDocument): Promise<RegistrationDocument[]> {
  const coll = registrations(platform.db);
  const current = await coll.find({ installation_id: installation._id, grant_id: installation.grant_id }).sort({ _id: 1 }).limit(MAX_LISTED_ROWS).toArray();
  const history = await coll
    .find({ installation_id: installation._id, grant_id: { $ne: installation.grant_id } })
    .sort({ _id: -1 })
    .limit(MAX_LISTED_ROWS - current.length)
    .toArray();
  return [...current, ...history];
}

const isFunction = (r: Pick<RegistrationDocument, 'kind'>) => r.kind === 'checkout_function';

export type UpdateOutcome = { outcome: 'updated'; registration: RegistrationView } | { outcome: 'conflict' | 'revoked'; registration: RegistrationView };

/**
 * The merchant's change of a row (`PATCH …/extensions/:id` for extensions, `…/functions/:id` for
 * Checkout Functions): its state, its settings within the manifest's, and for a validation
 * function whether it blocks checkout. One write, conditional on the version the merchant read,
 * carrying `app_extension.lifecycle.status_changed` to the app. A stale version answers the
 * row as it is now; a revoked row never comes back.
 */
export async function updateRegistration(
  platform: Platform,
  input: { storeId: string; installationId: string; registrationId: string; merchantId: string; functions: boolean; body: UpdateRegistrationBody },
): Promise<UpdateOutcome> {
  const installation = await visibleInstallation(platform, input.storeId, input.installationId, { kind: 'merchant' });
  if (installation.status !== 'active') throw notFound('Installation');
  const id = parseObjectId(input.registrationId);
  const coll = registrations(platform.db);
  const row = id ? await coll.findOne({ _id: id, installation_id: installation._id, store_id: installation.store_id }) : null;
  if (!row || isFunction(row) !== input.functions) throw notFound(input.functions ? 'Function' : 'Extension');
  if (row.state === 'revoked' || !row.grant_id.equals(installation.grant_id)) return { outcome: 'revoked', registration: presentRegistration(row) };
  if (row.version !== input.body.version) return { outcome: 'conflict', registration: presentRegistration(row) };

  const { state, settings, blocking } = input.body;
  const issues: string[] = [];
  const declared = declaredSettings(row.config);
  if (settings) {
    for (const [key, value] of Object.entries(settings)) {
      const fallback = declared.get(key);
      if (fallback === undefined) issues.push(`body.settings.${key}: is not a setting the extension declares (${[...declared.keys()].join(', ') || 'none'})`);
      else if (typeof value !== typeof fallback) issues.push(`body.settings.${key}: must be a ${typeof fallback}`);
    }
  }
  if (blocking !== undefined && !(row.kind === 'checkout_function' && row.target === 'validation'))
    issues.push('body.blocking: only a validation function can block checkout');
  if (issues.length) throw new PlatformError('invalid_data', 'invalid_input', 'The change is invalid', { details: issues });

  const now = platform.clock.now();
  const merchant = { type: 'merchant' as const, id: new ObjectId(input.merchantId) };
  const next: RegistrationDocument = {
    ...row,
    ...(state ? { state } : {}),
    ...(settings ? { settings: { ...row.settings, ...settings } } : {}),
    ...(blocking !== undefined ? { blocking } : {}),
    version: row.version + 1,
    updated_at: now,
  };
  if (state && state !== row.state) next.last_transition = { from: row.state, to: state, at: now, by: merchant, reason: 'merchant' };
  const changed = (['state', 'settings', 'blocking'] as const).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(row[k]));
  if (changed.length === 0) return { outcome: 'updated', registration: presentRegistration(row) };
  const app = await apps(platform.db).findOne({ _id: row.app_id }, { projection: { handle: 1 } });
  const view = presentRegistration(next);
  const pending = [
    platform.events.pending(
      'app_extension.lifecycle.status_changed',
      row.store_id,
      {
        registration: view,
        previous_state: row.state,
        state: next.state,
        changed,
        installation: { id: installation._id.toHexString() },
        app: { id: row.app_id.toHexString(), handle: app?.handle ?? null },
        changed_by: { type: 'merchant', id: input.merchantId },
        contract_version: LIFECYCLE_CONTRACT_VERSION,
      },
      `app_extension.lifecycle.status_changed:${row._id.toHexString()}:v${next.version}`,
      { recipient: { type: 'app_installation', id: installation._id } },
    ),
  ];
  const written = await coll.updateOne(
    { _id: row._id, version: row.version, state: row.state },
    carrying(
      {
        $set: { state: next.state, settings: next.settings, blocking: next.blocking, last_transition: next.last_transition, updated_at: now },
        $inc: { version: 1 },
      },
      pending,
    ),
  );
  if (written.matchedCount === 0) {
    const current = await coll.findOne({ _id: row._id });
    return { outcome: current?.state === 'revoked' ? 'revoked' : 'conflict', registration: presentRegistration(current ?? row) };
  }
  await platform.events.settle(coll, row._id, pending);
  return { outcome: 'updated', registration: view };
}
