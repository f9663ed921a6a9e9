import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { PlatformError, invalidInput, notFound, type InputIssue } from '../../errors.js';
import { carried, carrying, type PendingEvent } from '../../events/index.js';
import { findInStore, isDuplicateKeyError } from '../../db.js';
import { checkUrlShape } from '../../outbound/index.js';
import { afterCursor, type Page, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { consumeRateLimit } from '../../ratelimit/index.js';
import { generateToken } from '../../secrets/index.js';
import { appSuspendedError, isAppSuspended } from '../../security/index.js';
import { findPublishedApp, type PublishedApp } from '../app-store/service.js';
import { LIFECYCLE_CONTRACT_VERSION, type AppManifest } from '../manifest/types.js';
import { APP_WEBHOOK_TOPICS } from '../manifest/validate.js';
import { narrowAppSubscription, openAppSubscription } from '../../webhooks/index.js';
import { normaliseScopes, topicScope } from '../oauth/scopes.js';
import { signInstallLink } from '../session-tokens/service.js';
import type { AuthorizeBody } from './schemas.js';
import { apps, type AppDocument } from '../partners/models.js';
import { installations, type InstallationDocument } from './models.js';
import { oauthCodes } from '../oauth/models.js';
import { revokeTokens } from '../oauth/tokens.js';
import { countInstallChange } from '../stats/installs.js';
import { reconcileRegistry } from '../extensions/registry.js';
import { pendingRevocation } from '../extensions/revocation.js';
import { RevokeExtensions } from '../extensions/revocation.js';
import { stamps } from '../../allow-list.js';

export const CODE_PREFIX = 'emp_ac';

/** How often a write of an installation retries when a concurrent write got there first. */
const WRITE_ATTEMPTS = 5;
/** The largest `metadata` object an app may keep per store, serialised as JSON. */
export const MAX_METADATA_BYTES = 16 * 1024;

export type InstallationView = {
  id: string;
  app_id: string;
  store_id: string;
  status: InstallationDocument['status'];
  scopes: string[];
  webhook_url: string;
  installed_at: string;
  uninstalled_at: string | null;
  created_at: string;
  updated_at: string;
};

export function presentInstallation(doc: InstallationDocument): InstallationView {
  return {
    id: doc._id.toHexString(),
    app_id: doc.app_id.toHexString(),
    store_id: doc.store_id.toHexString(),
    status: doc.status,
    scopes: doc.scopes,
    webhook_url: doc.webhook_url,
    installed_at: doc.installed_at.toISOString(),
    uninstalled_at: doc.uninstalled_at?.toISOString() ?? null,
    ...stamps(doc),
  };
}

/** Lifecycle events are addressed to the installation: its app's subscription receives them, no other app's (docs/apps.md, App webhooks). */
const toInstallation = (doc: Pick<InstallationDocument, '_id'>) => ({ recipient: { type: 'app_installation' as const, id: doc._id } });

/**
 * The topics of an installation's subscription: the lifecycle and compliance topics, and the
 * manifest's store topics that the granted scopes allow (an app hears of what it can read).
 */
export function subscriptionTopics(manifest: AppManifest, scopes: readonly string[]): string[] {
  const granted = new Set(scopes);
  const store = manifest.webhooks.topics.filter((t) => {
    if ((APP_WEBHOOK_TOPICS as readonly string[]).includes(t)) return false;
    const needs = topicScope(t);
    return needs === null || (needs !== undefined && granted.has(needs));
  });
  return [...APP_WEBHOOK_TOPICS, ...store];
}

/** The app as lifecycle events name it. */
const appRef = (app: AppDocument) => ({ id: app._id.toHexString(), handle: app.handle, name: app.published?.name ?? app.name });

export type Authorization = {
  code: string;
  state: string;
  redirect_url: string;
  expires_in: number;
  installation: InstallationView;
};

/**
 * The merchant's consent (spec 2.1, 3): checks the request against the app's published
 * manifest, makes the installation active (a new grant when it was not), or updates an active
 * one's scopes and webhook target, then mints an authorization code bound to the client, the
 * grant, the redirect URI and the PKCE challenge. docs/oauth.md, "Authorize".
 */
export async function authorize(platform: Platform, merchantId: string, storeId: string, appId: string, body: AuthorizeBody): Promise<Authorization> {
  await consumeRateLimit(platform, [{ bucket: `oauth-authorize:merchant:${merchantId}`, limit: platform.config.apps.oauthRateLimit, windowSeconds: 60 }]);
  const app = await consentableApp(platform, appId);
  const requested = checkAuthorizeRequest(platform, app, body);

  const installation = await grantInstallation(platform, app, new ObjectId(storeId), new ObjectId(merchantId), requested, body.webhook_url);
  // The grant's extension rows (a retry of the consent repairs them if the process stopped before).
  await reconcileRegistry(platform, app, installation);

  const now = platform.clock.now();
  const code = generateToken(CODE_PREFIX);
  const ttl = platform.config.apps.codeTtlSeconds;
  await oauthCodes(platform.db).insertOne({
    _id: new ObjectId(),
    code_hash: code.hash,
    app_id: app._id,
    installation_id: installation._id,
    grant_id: installation.grant_id,
    store_id: installation.store_id,
    merchant_id: new ObjectId(merchantId),
    redirect_uri: body.redirect_uri,
    code_challenge: body.code_challenge,
    scopes: requested,
    expires_at: new Date(now.getTime() + ttl * 1000),
    used_at: null,
    created_at: now,
  });
  const redirect = new URL(body.redirect_uri);
  redirect.searchParams.set('code', code.token);
  redirect.searchParams.set('state', body.state);
  return { code: code.token, state: body.state, redirect_url: redirect.toString(), expires_in: ttl, installation: presentInstallation(installation) };
}

/** The app a merchant may consent to: published (else 404) and not suspended by operators. */
export async function consentableApp(platform: Platform, appId: string): Promise<PublishedApp> {
  const app = await findPublishedApp(platform, appId);
  if (!app) throw notFound('App');
  if (await isAppSuspended(platform, appId)) throw appSuspendedError();
  return app;
}

/**
 * A consent's checks against the app's published manifest, before anything is written: the
 * redirect URI, the scopes (answered normalised) and the webhook target. What the consent page
 * checks before it shows the request, and what `authorize` checks again when it is given.
 */
export function checkAuthorizeRequest(platform: Platform, app: PublishedApp, body: AuthorizeBody): string[] {
  const manifest = app.published;
  const issues: InputIssue[] = [];
  if (!manifest.redirect_urls.includes(body.redirect_uri)) {
    throw new PlatformError('invalid_data', 'invalid_redirect_uri', "redirect_uri must be exactly one of the app's redirect URLs", {
      details: ['body.redirect_uri: is not one of the redirect_urls of the app manifest'],
    });
  }
  const requested = normaliseScopes(body.scopes);
  const beyond = requested.filter((s) => !manifest.scopes.includes(s));
  if (beyond.length > 0) {
    throw new PlatformError('invalid_data', 'invalid_scope', 'The requested scopes must be among those the app manifest asks for', {
      details: beyond.map((s) => `body.scopes: ${s} is not among the scopes of the app manifest`),
    });
  }
  const webhook = checkUrlShape(platform.config, body.webhook_url);
  if (!webhook.ok) issues.push({ path: 'webhook_url', message: webhook.reason });
  if (issues.length > 0) throw invalidInput(issues);
  return requested;
}

/**
 * Make the app's installation in the store active with these scopes: a new installation, a
 * re-install (a fresh grant: new grant id, metadata cleared), or a re-authorization of an
 * active one (same grant; `app.scopes_updated` when the scopes change). Each write is
 * conditional on the version read and carries its event.
 */
async function grantInstallation(
  platform: Platform,
  app: PublishedApp,
  storeId: ObjectId,
  merchantId: ObjectId,
  scopes: string[],
  webhookUrl: string,
): Promise<InstallationDocument> {
  const coll = installations(platform.db);
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const now = platform.clock.now();
    const current = await coll.findOne({ app_id: app._id, store_id: storeId });
    // An install (the first, or one after an uninstall) starts a new grant with empty metadata.
    const grant = {
      status: 'active' as const,
      grant_id: new ObjectId(),
      scopes,
      webhook_url: webhookUrl,
      installed_by: merchantId,
      metadata: {},
      metadata_version: 0,
      installed_at: now,
      uninstalled_at: null,
    };
    if (!current) {
      const doc: InstallationDocument = { _id: new ObjectId(), app_id: app._id, store_id: storeId, ...grant, version: 1, created_at: now, updated_at: now };
      const pending = [installedEvent(platform, app, doc)];
      try {
        await coll.insertOne({ ...doc, ...carried(pending) });
      } catch (err) {
        if (isDuplicateKeyError(err)) continue; // installed concurrently: read it and go on from there
        throw err;
      }
      await openSubscription(platform, app, doc);
      await countInstallChange(platform, app._id, 'installed');
      await platform.events.settle(coll, doc._id, pending);
      return doc;
    }
    let next: InstallationDocument;
    let pending: PendingEvent[];
    let set: Partial<InstallationDocument>;
    if (current.status !== 'active') {
      set = { ...grant, shop_redact_due_at: null, updated_at: now };
      next = { ...current, ...set, version: current.version + 1 };
      pending = [installedEvent(platform, app, next)];
    } else {
      // Only these fields: the app's metadata may change meanwhile and is not this write's.
      set = { scopes, webhook_url: webhookUrl, installed_by: merchantId, updated_at: now };
      next = { ...current, ...set, version: current.version + 1 };
      const changed = current.scopes.join(' ') !== scopes.join(' ');
      pending = changed
        ? [
            platform.events.pending(
              'app.scopes_updated',
              storeId,
              { installation: presentInstallation(next), app: appRef(app), previous_scopes: current.scopes, contract_version: LIFECYCLE_CONTRACT_VERSION },
              `app.scopes_updated:${next._id.toHexString()}:v${next.version}`,
              toInstallation(next),
            ),
          ]
        : [];
    }
    const written = await coll.updateOne({ _id: current._id, version: current.version }, carrying({ $set: set, $inc: { version: 1 } }, pending));
    if (written.matchedCount === 0) continue;
    await openSubscription(platform, app, next);
    if (current.status !== 'active') await countInstallChange(platform, app._id, 'reinstalled');
    await platform.events.settle(coll, current._id, pending);
    return next;
  }
  throw new PlatformError('conflict', 'installation_busy', 'The installation kept changing while it was being authorized; try again');
}

/**
 * The installation's webhook subscription, made active with its target and topics before its
 * lifecycle event is recorded. If the process stops between the installation's write and this,
 * the event is recorded later by the sweep and finds no subscription; the merchant's retry of
 * the consent (which failed for them) makes it.
 */
async function openSubscription(platform: Platform, app: PublishedApp, doc: InstallationDocument): Promise<void> {
  await openAppSubscription(platform, {
    installationId: doc._id,
    appId: app._id,
    storeId: doc.store_id,
    targetUrl: doc.webhook_url,
    eventTypes: subscriptionTopics(app.published, doc.scopes),
  });
}

function installedEvent(platform: Platform, app: AppDocument, doc: InstallationDocument): PendingEvent {
  return platform.events.pending(
    'app.installed',
    doc.store_id,
    { installation: presentInstallation(doc), app: appRef(app), contract_version: LIFECYCLE_CONTRACT_VERSION },
    `app.installed:${doc._id.toHexString()}:${doc.grant_id.toHexString()}`,
    toInstallation(doc),
  );
}

export async function getInstallation(platform: Platform, storeId: string, installationId: string): Promise<InstallationView> {
  const doc = await findInStore(installations(platform.db), storeId, installationId, 'Installation');
  return presentInstallation(doc);
}

/** A store's installations (active and uninstalled), oldest first. */
export async function listInstallations(platform: Platform, storeId: string, q: Page & { status?: InstallationDocument['status'] | undefined }) {
  const filter = { store_id: new ObjectId(storeId), ...(q.status ? { status: q.status } : {}), ...afterCursor(q) };
  const page = await findPage(installations(platform.db), filter, q.limit);
  return { items: page.items.map(presentInstallation), nextCursor: page.nextCursor };
}

/**
 * Uninstall (the merchant): the installation becomes `uninstalled` and every token of it stops
 * working at once (the authenticator honours only active installations; the tokens are also
 * revoked). `app.uninstalled` travels with the write. A re-install later starts a new grant.
 */
export async function uninstall(platform: Platform, storeId: string, installationId: string): Promise<InstallationView> {
  const coll = installations(platform.db);
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await findInStore(coll, storeId, installationId, 'Installation');
    if (current.status !== 'active') throw notFound('Installation');
    const app = await apps(platform.db).findOne({ _id: current.app_id });
    const now = platform.clock.now();
    const next: InstallationDocument = { ...current, status: 'uninstalled', uninstalled_at: now, updated_at: now, version: current.version + 1 };
    const pending = [
      platform.events.pending(
        'app.uninstalled',
        current.store_id,
        {
          installation: presentInstallation(next),
          app: app ? appRef(app) : { id: current.app_id.toHexString() },
          contract_version: LIFECYCLE_CONTRACT_VERSION,
        },
        `app.uninstalled:${current._id.toHexString()}:${current.grant_id.toHexString()}`,
        toInstallation(current),
      ),
    ];
    const shopRedactDue = new Date(now.getTime() + platform.config.apps.shopRedactDelaySeconds * 1000);
    const written = await coll.updateOne(
      { _id: current._id, store_id: current.store_id, version: current.version },
      carrying(
        {
          $set: {
            status: 'uninstalled' as const,
            uninstalled_at: now,
            shop_redact_due_at: shopRedactDue,
            // The extensions worker's to do, in this same write: no uninstall goes without it.
            extension_revocation: pendingRevocation(now),
            updated_at: now,
          },
          $inc: { version: 1 },
        },
        pending,
      ),
    );
    if (written.matchedCount === 0) continue;
    // The app hears nothing more of the store: only what is addressed to this installation
    // (app.uninstalled now, shop.redact later).
    await narrowAppSubscription(platform, current._id, current.store_id, [...APP_WEBHOOK_TOPICS]);
    await countInstallChange(platform, current.app_id, 'uninstalled');
    await revokeTokens(platform, { installation_id: current._id });
    // Not awaited by correctness: rows of an uninstalled installation resolve to nothing already.
    await platform.jobs.enqueue(RevokeExtensions, { installation_id: current._id.toHexString() });
    await platform.events.settle(coll, current._id, pending);
    platform.log.info({ event: 'apps.uninstalled', installation_id: current._id.toHexString(), store_id: storeId });
    return presentInstallation(next);
  }
  throw new PlatformError('conflict', 'installation_busy', 'The installation kept changing while it was being uninstalled; try again');
}

export type MetadataView = { metadata: Record<string, unknown>; version: number; updated_at: string };

export async function getMetadata(platform: Platform, installationId: string): Promise<MetadataView> {
  const doc = await installations(platform.db).findOne({ _id: new ObjectId(installationId), status: 'active' });
  if (!doc) throw notFound('Installation');
  return { metadata: doc.metadata, version: doc.metadata_version, updated_at: doc.updated_at.toISOString() };
}

/** Replace the app's metadata object for its store (at most MAX_METADATA_BYTES as JSON). */
export async function putMetadata(platform: Platform, installationId: string, metadata: Record<string, unknown>): Promise<MetadataView> {
  const size = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (size > MAX_METADATA_BYTES) {
    throw new PlatformError('payload_too_large', 'metadata_too_large', `metadata must be at most ${MAX_METADATA_BYTES} bytes as JSON (it is ${size})`);
  }
  const now = platform.clock.now();
  const doc = await installations(platform.db).findOneAndUpdate(
    { _id: new ObjectId(installationId), status: 'active' },
    { $set: { metadata, updated_at: now }, $inc: { metadata_version: 1 } },
    { returnDocument: 'after' },
  );
  if (!doc) throw notFound('Installation');
  return { metadata: doc.metadata, version: doc.metadata_version, updated_at: doc.updated_at.toISOString() };
}

export type InstallStart = {
  /** Where the merchant's browser goes next: the app's app_url with the store and a signed install token. */
  install_url: string;
  install_token: string;
  expires_in: number;
  app: { id: string; handle: string; name: string; client_id: string };
  store: { id: string; subdomain: string };
};

/**
 * The start of an install (docs/oauth.md, "Install"): for a published app and a store the
 * merchant owns, the app's `app_url` with `store_id`, `store` (the subdomain) and
 * `install_token` (a platform-signed JWT for this app, 5 minutes, verifiable with the JWKS). The
 * app checks it, then sends the merchant to authorize with its own PKCE challenge and state. It
 * records nothing: the installation is made by the consent.
 */
export async function startInstall(platform: Platform, issuer: string, appId: string, store: { id: string; subdomain: string }): Promise<InstallStart> {
  const app = await findPublishedApp(platform, appId);
  if (!app) throw notFound('App');
  const link = await signInstallLink(platform, { issuer, app, store, nonce: randomBytes(16).toString('base64url') });
  const url = new URL(app.published.app_url);
  url.searchParams.set('store_id', store.id);
  url.searchParams.set('store', store.subdomain);
  url.searchParams.set('install_token', link.token);
  return {
    install_url: url.toString(),
    install_token: link.token,
    expires_in: link.expiresIn,
    app: { id: app._id.toHexString(), handle: app.handle, name: app.published.name, client_id: app.client_id },
    store,
  };
}
