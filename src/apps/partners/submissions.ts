import { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { parseObjectId } from '../../ids.js';
import { afterCursor, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { createAppSigningSecret, rotateAppSigningSecret, type AppSecretView } from '../../webhooks/index.js';
import { newCredentials } from './credentials.js';
import { requireDeveloper } from './developers.js';
import { validateManifest, type ManifestValidation } from '../manifest/validate.js';
import type { AppManifest } from '../manifest/types.js';
import { presentDeveloperApp, type DeveloperAppView, type SubmissionView } from './present.js';
import type { DeveloperAppsQuery } from './schemas.js';
import { appVersions, apps, type AppDocument, type AppVersionDocument } from './models.js';

/** App submission (docs/apps.md, Submission and credentials): apps, their versions, a partner's view of them. */

const UPDATE_ATTEMPTS = 5;

const handleTaken = (handle: string) => new PlatformError('conflict', 'app_handle_taken', `An app with the handle "${handle}" already exists`);

/** Validate a manifest for the platform's environment and event types. */
export const checkManifest = (platform: Platform, manifest: unknown): ManifestValidation =>
  validateManifest({ config: platform.config, eventTypes: platform.events.types }, manifest);

/** POST …/apps/manifest/validate: the caller must be a partner; nothing is created. */
export async function validateManifestFor(platform: Platform, merchantId: string, manifest: unknown): Promise<ManifestValidation> {
  await requireDeveloper(platform, merchantId);
  return checkManifest(platform, manifest);
}

/** The normalised manifest, or 400 `invalid_manifest` whose details are validate's issues, verbatim. */
function validOrThrow(platform: Platform, manifest: unknown, extra: (m: AppManifest) => string[] = () => []): AppManifest {
  const result = checkManifest(platform, manifest);
  const issues = result.ok ? extra(result.manifest) : result.issues;
  if (!result.ok || issues.length > 0) throw new PlatformError('invalid_data', 'invalid_manifest', 'The app manifest is invalid', { details: issues });
  return result.manifest;
}

/** Version `number` of an app, submitted now and waiting for review. */
function versionInReview(appId: ObjectId, developerId: ObjectId, number: number, manifest: AppVersionDocument['manifest'], now: Date): AppVersionDocument {
  return {
    _id: new ObjectId(),
    app_id: appId,
    developer_id: developerId,
    number,
    manifest,
    status: 'submitted',
    reasons: [],
    submitted_at: now,
    reviewed_at: null,
    reviewed_by: null,
  };
}

/**
 * A new app (status `submitted`) with version 1 in review, and its credentials, shown this once.
 * The app is written first (its unique handle decides between two submissions at once); if the
 * version's write were lost, the app shows `latest_version: null` and a new version repairs it.
 */
export async function submitApp(platform: Platform, merchantId: string, input: { manifest: unknown }): Promise<SubmissionView> {
  const developer = await requireDeveloper(platform, merchantId);
  const manifest = validOrThrow(platform, input.manifest);
  if (await apps(platform.db).findOne({ handle: manifest.handle }, { projection: { _id: 1 } })) throw handleTaken(manifest.handle);
  const now = platform.clock.now();
  const credentials = newCredentials(now);
  const version = versionInReview(new ObjectId(), developer._id, 1, manifest, now);
  const app: AppDocument = {
    _id: version.app_id,
    developer_id: developer._id,
    merchant_id: developer.merchant_id,
    handle: manifest.handle,
    name: manifest.name,
    status: 'submitted',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret.stored,
    api_key: credentials.apiKey.stored,
    published_version_id: null,
    published: null,
    published_at: null,
    latest_version_id: version._id,
    version_count: 1,
    created_at: now,
    updated_at: now,
  };
  await onDuplicateKey(apps(platform.db).insertOne(app), () => handleTaken(manifest.handle));
  await appVersions(platform.db).insertOne(version);
  const webhookSecret = await createAppSigningSecret(platform, app._id);
  platform.log.info({
    event: 'apps.app_submitted',
    app_id: app._id.toHexString(),
    version_id: version._id.toHexString(),
    developer_id: developer._id.toHexString(),
  });
  return {
    app: presentDeveloperApp(app, version),
    credentials: { oauth_client_id: credentials.clientId, client_secret: credentials.clientSecret.plaintext, api_key: credentials.apiKey.plaintext },
    webhook_signing_secret: webhookSecret,
  };
}

/** The caller's own app (any status), or 404 (another partner's app is not found). */
export async function findOwnApp(platform: Platform, merchantId: string, appId: string): Promise<AppDocument> {
  const id = parseObjectId(appId);
  const app = id ? await apps(platform.db).findOne({ _id: id, merchant_id: new ObjectId(merchantId) }) : null;
  if (!app) throw notFound('App');
  return app;
}

/** Whether an app of that id exists, of any partner and status (an operator suspends it: docs/operations.md, Security enforcement). */
export async function appExists(platform: Platform, appId: string): Promise<boolean> {
  const id = parseObjectId(appId);
  return id !== null && (await apps(platform.db).countDocuments({ _id: id }, { limit: 1 })) > 0;
}

/**
 * A new version of the caller's app, into review. The handle cannot change. The published
 * version (if any) keeps serving until this one is approved; an older version still in review
 * is superseded (only the latest can be approved). A rejected app is `submitted` again.
 *
 * The app's version count is claimed first (a conditional update), then the version written:
 * two submissions at once get different numbers, and a lost version write leaves a gap, not a
 * number that can never be used again.
 */
export async function submitVersion(platform: Platform, merchantId: string, appId: string, input: { manifest: unknown }): Promise<DeveloperAppView> {
  await requireDeveloper(platform, merchantId);
  const app = await findOwnApp(platform, merchantId, appId);
  const manifest = validOrThrow(platform, input.manifest, (m) =>
    m.handle === app.handle ? [] : [`handle: must stay "${app.handle}" (an app's handle cannot change)`],
  );
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const current = await findOwnApp(platform, merchantId, appId);
    const now = platform.clock.now();
    const version = versionInReview(current._id, current.developer_id, current.version_count + 1, manifest, now);
    const updated = await apps(platform.db).findOneAndUpdate(
      { _id: current._id, version_count: current.version_count },
      {
        $set: {
          latest_version_id: version._id,
          version_count: version.number,
          name: manifest.name,
          status: current.status === 'rejected' ? 'submitted' : current.status,
          updated_at: now,
        },
      },
      { returnDocument: 'after' },
    );
    if (!updated) continue;
    await appVersions(platform.db).insertOne(version);
    await appVersions(platform.db).updateMany(
      { app_id: current._id, status: 'submitted', number: { $lt: version.number } },
      { $set: { status: 'superseded' } },
    );
    platform.log.info({ event: 'apps.version_submitted', app_id: appId, version_id: version._id.toHexString(), number: version.number });
    return presentDeveloperApp(updated, version);
  }
  throw new PlatformError('conflict', 'app_busy', 'The app kept changing while the version was being submitted; try again');
}

async function latestVersions(platform: Platform, list: AppDocument[]): Promise<Map<string, AppVersionDocument>> {
  const docs = await appVersions(platform.db)
    .find({ _id: { $in: list.map((a) => a.latest_version_id) } })
    .toArray();
  return new Map(docs.map((v) => [v._id.toHexString(), v]));
}

export async function listDeveloperApps(
  platform: Platform,
  merchantId: string,
  query: DeveloperAppsQuery,
): Promise<{ items: DeveloperAppView[]; nextCursor: string | null }> {
  const developer = await requireDeveloper(platform, merchantId);
  const { items, nextCursor } = await findPage(apps(platform.db), { developer_id: developer._id, ...afterCursor(query) }, query.limit);
  const versions = await latestVersions(platform, items);
  return { items: items.map((a) => presentDeveloperApp(a, versions.get(a.latest_version_id.toHexString()) ?? null)), nextCursor };
}

export async function getDeveloperApp(platform: Platform, merchantId: string, appId: string): Promise<DeveloperAppView> {
  await requireDeveloper(platform, merchantId);
  const app = await findOwnApp(platform, merchantId, appId);
  return presentDeveloperApp(app, await appVersions(platform.db).findOne({ _id: app.latest_version_id }));
}

/**
 * A new webhook signing secret for the caller's app, in this answer only (docs/apps.md, App
 * webhooks); the one it replaces keeps signing beside it for `grace_period_seconds`.
 */
export async function rotateWebhookSecret(
  platform: Platform,
  merchantId: string,
  appId: string,
  graceSeconds: number,
): Promise<AppSecretView & { app_id: string; secret: string }> {
  await requireDeveloper(platform, merchantId);
  const app = await findOwnApp(platform, merchantId, appId);
  const rotated = await rotateAppSigningSecret(platform, app._id, graceSeconds);
  platform.log.info({ event: 'apps.webhook_secret_rotated', app_id: appId, grace_period_seconds: graceSeconds });
  return { app_id: appId, ...rotated };
}
