import { ObjectId } from 'mongodb';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { PlatformError, invalidInput, notFound, type InputIssue } from '../../errors.js';
import type { AppPrincipal, MerchantPrincipal, ScopedStore } from '../../http/context.js';
import { parseObjectId } from '../../ids.js';
import { addressRulesApply, checkUrlShape, isLoopbackHost, normalizeHost } from '../../outbound/index.js';
import type { Platform } from '../../platform.js';
import { BRIDGE_CAPABILITIES, type AppManifest, type BridgeCapability, type ManifestExtension } from '../manifest/types.js';
import { SESSION_TOKEN_TYPE_URN, issueSessionToken } from '../session-tokens/service.js';
import { apps, type AppDocument } from '../partners/models.js';
import { installations, type BridgeCapabilitySetting, type InstallationDocument } from '../installations/models.js';

/**
 * Embedding an app in the admin (spec 2.4; docs/apps.md, Embedded apps): which bridge capabilities an
 * embedded app has, and the URL the admin frames it from, with the session token it needs.
 *
 * Capabilities are resolved in layers, each later one winning, inside a ceiling:
 * 1. defaults: `api.fetch`, `toast`, `resize` on, `navigation.redirect` off;
 * 2. admin embed config (`admin_embed`): the manifest's `bridge.capabilities`, what the app
 *    declares it uses; a capability it does not declare is off, and stays off whatever follows;
 * 3. extension config (`extension`), for an embed of one admin_ui extension: its
 *    `config.bridge_capabilities`, a list that narrows (a declared capability it does not list
 *    is off for that extension);
 * 4. installation (`installation`): the merchant's per-store `bridge_capabilities`, on or off per
 *    capability; the only layer that can switch `navigation.redirect` on.
 */

export const CAPABILITY_DEFAULTS: Readonly<Record<BridgeCapability, boolean>> = { 'api.fetch': true, toast: true, resize: true, 'navigation.redirect': false };

export type CapabilityLayer = 'default' | 'admin_embed' | 'extension' | 'installation';
export type ResolvedCapabilities = { capabilities: Record<BridgeCapability, boolean>; sources: Record<BridgeCapability, CapabilityLayer> };

const isCapability = (name: unknown): name is BridgeCapability => typeof name === 'string' && (BRIDGE_CAPABILITIES as readonly string[]).includes(name);

/**
 * The capabilities of an embed, and the layer that decided each. Pure. Stored values that no
 * longer fit (a capability the app stopped declaring, an extension config that is not a list of
 * names) are ignored, never an error: what is checked is checked when it is written.
 */
export function resolveCapabilities(input: {
  declared: readonly BridgeCapability[];
  extension: Pick<ManifestExtension, 'config'> | null;
  installation: readonly BridgeCapabilitySetting[] | undefined;
}): ResolvedCapabilities {
  const capabilities = { ...CAPABILITY_DEFAULTS };
  const sources = Object.fromEntries(BRIDGE_CAPABILITIES.map((c) => [c, 'default'])) as Record<BridgeCapability, CapabilityLayer>;
  const set = (c: BridgeCapability, on: boolean, layer: CapabilityLayer) => {
    capabilities[c] = on;
    sources[c] = layer;
  };
  const declared = new Set(input.declared);
  for (const c of BRIDGE_CAPABILITIES) if (!declared.has(c)) set(c, false, 'admin_embed');

  const listed = input.extension?.config.bridge_capabilities;
  if (input.extension && Array.isArray(listed)) {
    const uses = new Set(listed.filter(isCapability));
    for (const c of declared) if (!uses.has(c) && capabilities[c]) set(c, false, 'extension');
  }

  for (const setting of input.installation ?? []) {
    if (isCapability(setting.capability) && declared.has(setting.capability) && typeof setting.enabled === 'boolean')
      set(setting.capability, setting.enabled, 'installation');
  }
  return { capabilities, sources };
}

/**
 * Where the admin may frame an app from: the platform's URL rules (https; plain http only to a
 * loopback host in development and test) and, in staging and production, no loopback host at
 * all, https or not (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`): local development only.
 */
export function checkEmbedUrl(config: Config, raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  const shape = checkUrlShape(config, raw);
  if (!shape.ok) return shape;
  const host = normalizeHost(shape.url.hostname);
  if (addressRulesApply(config) && (isLoopbackHost(host) || host.endsWith('.localhost'))) {
    return { ok: false, reason: `must not point at ${host}: localhost is allowed only in development (APP_ENV is ${config.env})` };
  }
  return shape;
}

export type EmbedUrlSource = 'install_config' | 'extension_config' | 'extension_target' | 'app_url';

export type ResolvedEmbedUrl = { ok: true; url: URL; source: EmbedUrlSource } | { ok: false; source: EmbedUrlSource; candidate: string; reason: string };

/** `base` with `path` (and its query) appended to its own path: `https://a.example/app` + `/orders?x=1` → `https://a.example/app/orders?x=1`. */
function underAppUrl(base: string, path: string): string {
  const url = new URL(base);
  const [pathname = '', query = ''] = path.split('?', 2);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${pathname}`;
  for (const [k, v] of new URLSearchParams(query)) url.searchParams.append(k, v);
  return url.href;
}

/**
 * The admin embed URL of an installation, from the first source that has one (spec 2.4):
 * 1. install config: the merchant's `embed_url` for this installation;
 * 2. extension config: the extension's `config.url` (an extension embed only);
 * 3. extension target: `app_url` + the target's segments after `admin` as a path
 *    (`admin.product.details` → `<app_url>/product/details`; an extension embed only);
 * 4. `app_url` + `embedded.admin_path` (the app's own embed).
 * The chosen URL must pass checkEmbedUrl; one that does not is refused, never replaced by a
 * later source. Pure.
 */
export function resolveEmbedUrl(
  config: Config,
  input: {
    manifest: Pick<AppManifest, 'app_url' | 'embedded'>;
    extension: Pick<ManifestExtension, 'target' | 'config'> | null;
    installEmbedUrl: string | null;
  },
): ResolvedEmbedUrl {
  const extensionUrl = input.extension?.config.url;
  const [source, candidate]: [EmbedUrlSource, string] =
    input.installEmbedUrl !== null
      ? ['install_config', input.installEmbedUrl]
      : input.extension && typeof extensionUrl === 'string' && extensionUrl.length > 0
        ? ['extension_config', extensionUrl]
        : input.extension
          ? ['extension_target', underAppUrl(input.manifest.app_url, `/${input.extension.target.split('.').slice(1).join('/')}`)]
          : ['app_url', underAppUrl(input.manifest.app_url, input.manifest.embedded.admin_path)];
  const checked = checkEmbedUrl(config, candidate);
  return checked.ok ? { ok: true, url: checked.url, source } : { ok: false, source, candidate, reason: checked.reason };
}

// ── The merchant's settings ─────────────────────────────────────────────────────────────────

const CapabilitySettings = z
  .strictObject(Object.fromEntries(BRIDGE_CAPABILITIES.map((c) => [c, z.boolean()])) as Record<BridgeCapability, z.ZodBoolean>)
  .partial();

/**
 * `PATCH /v1/app-store/installations/:id/embedding`: each field given replaces the stored one;
 * `bridge_capabilities` as a whole (`{}` or null: no settings), `embed_url` (null: none).
 */
export const UpdateEmbeddingBody = z.strictObject({
  bridge_capabilities: CapabilitySettings.nullable().optional(),
  embed_url: z.string().min(1).max(2048).nullable().optional(),
});
export type UpdateEmbeddingBody = z.infer<typeof UpdateEmbeddingBody>;

/** `?extension=<handle>`: the embed of one of the app's admin_ui extensions. */
export const EmbedQuery = z.strictObject({
  extension: z
    .string()
    .max(60)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be an extension handle: lowercase kebab-case')
    .optional(),
});
export type EmbedQuery = z.infer<typeof EmbedQuery>;

export type EmbeddingView = {
  installation_id: string;
  bridge_capabilities: Partial<Record<BridgeCapability, boolean>>;
  embed_url: string | null;
  updated_at: string;
};

const presentEmbedding = (doc: InstallationDocument): EmbeddingView => ({
  installation_id: doc._id.toHexString(),
  bridge_capabilities: Object.fromEntries((doc.bridge_capabilities ?? []).map((s) => [s.capability, s.enabled])),
  embed_url: doc.embed?.url ?? null,
  updated_at: doc.updated_at.toISOString(),
});

/** An active installation of the store with its app's published manifest, or 404. */
async function findEmbeddable(
  platform: Platform,
  storeId: string,
  installationId: string,
): Promise<{ installation: InstallationDocument; app: AppDocument; manifest: AppManifest }> {
  const id = parseObjectId(installationId);
  const installation = id ? await installations(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId), status: 'active' }) : null;
  const app = installation ? await apps(platform.db).findOne({ _id: installation.app_id }) : null;
  if (!installation || !app?.published) throw notFound('Installation');
  return { installation, app, manifest: app.published };
}

export async function getEmbedding(platform: Platform, storeId: string, installationId: string): Promise<EmbeddingView> {
  return presentEmbedding((await findEmbeddable(platform, storeId, installationId)).installation);
}

/**
 * The merchant's embedding settings of an active installation. `true` only for a capability
 * the app declares (a capability it does not use cannot be given to it); `embed_url` by
 * checkEmbedUrl. Nothing is written unless all of it is acceptable.
 */
export async function updateEmbedding(platform: Platform, storeId: string, installationId: string, body: UpdateEmbeddingBody): Promise<EmbeddingView> {
  const { installation, manifest } = await findEmbeddable(platform, storeId, installationId);
  const issues: InputIssue[] = [];
  const set: Partial<InstallationDocument> = {};
  if (body.bridge_capabilities !== undefined) {
    const settings = Object.entries(body.bridge_capabilities ?? {}) as [BridgeCapability, boolean][];
    for (const [capability, enabled] of settings) {
      if (enabled && !manifest.bridge.capabilities.includes(capability)) {
        issues.push({
          path: `bridge_capabilities.${capability}`,
          message: `the app does not declare this capability (its bridge.capabilities: ${manifest.bridge.capabilities.join(', ') || 'none'})`,
        });
      }
    }
    set.bridge_capabilities = BRIDGE_CAPABILITIES.flatMap((c) =>
      settings.filter(([name]) => name === c).map(([capability, enabled]) => ({ capability, enabled })),
    );
  }
  if (body.embed_url !== undefined) {
    if (body.embed_url === null) set.embed = null;
    else {
      const checked = checkEmbedUrl(platform.config, body.embed_url);
      if (checked.ok) set.embed = { url: checked.url.href };
      else issues.push({ path: 'embed_url', message: checked.reason });
    }
  }
  if (issues.length > 0) throw invalidInput(issues);
  if (Object.keys(set).length === 0) return presentEmbedding(installation);
  const updated = await installations(platform.db).findOneAndUpdate(
    { _id: installation._id, store_id: installation.store_id, status: 'active' },
    { $set: { ...set, updated_at: platform.clock.now() } },
    { returnDocument: 'after' },
  );
  if (!updated) throw notFound('Installation');
  return presentEmbedding(updated);
}

// ── What the embedded app and the admin read ────────────────────────────────────────────────

/** The admin_ui extension of the app by that handle, or 404 (another kind, another app's, none). */
function adminExtension(manifest: AppManifest, handle: string | undefined): ManifestExtension | null {
  if (handle === undefined) return null;
  const found = manifest.extensions.find((e) => e.kind === 'admin_ui' && e.handle === handle);
  if (!found) throw new PlatformError('not_found', 'extension_not_found', `The app has no admin_ui extension with the handle "${handle}"`);
  return found;
}

export type CapabilitiesView = ResolvedCapabilities & { extension: string | null };

async function appInstallation(platform: Platform, principal: AppPrincipal) {
  const found = await findEmbeddable(platform, principal.storeId, principal.installationId);
  if (found.app._id.toHexString() !== principal.appId) throw notFound('Installation');
  return found;
}

/** `GET /v1/app-store/bridge/capabilities`: the calling app's capabilities in its store, for its embed or one extension's. */
export async function getBridgeCapabilities(platform: Platform, principal: AppPrincipal, query: EmbedQuery): Promise<CapabilitiesView> {
  const { installation, manifest } = await appInstallation(platform, principal);
  const extension = adminExtension(manifest, query.extension);
  return {
    ...resolveCapabilities({ declared: manifest.bridge.capabilities, extension, installation: installation.bridge_capabilities }),
    extension: extension?.handle ?? null,
  };
}

/**
 * A bridge call needs its capability on, as resolved for the app's admin embed (no extension
 * layer: a bridge request does not say which surface it comes from); 403 `capability_disabled`.
 */
export async function requireBridgeCapability(platform: Platform, principal: AppPrincipal, capability: BridgeCapability): Promise<void> {
  const { installation, manifest } = await appInstallation(platform, principal);
  const { capabilities } = resolveCapabilities({ declared: manifest.bridge.capabilities, extension: null, installation: installation.bridge_capabilities });
  if (!capabilities[capability])
    throw new PlatformError('not_allowed', 'capability_disabled', `The bridge capability ${capability} is not enabled for this app in this store`);
}

/**
 * The URL an embed is framed from (resolveEmbedUrl; 409 `embed_url_refused` when its rules refuse
 * it), with `embedded=1`, `store_id`, `store` (the subdomain) and, for an extension, `extension`
 * and `target`; never a token. The admin's host frames exactly this (bridge/host.ts).
 */
export function embedFrameUrl(
  config: Config,
  input: {
    manifest: AppManifest;
    installation: Pick<InstallationDocument, 'embed'>;
    store: { id: string; subdomain: string };
    extension: Pick<ManifestExtension, 'handle' | 'target' | 'config'> | null;
  },
): { url: URL; source: EmbedUrlSource } {
  const { manifest, installation, extension } = input;
  const resolved = resolveEmbedUrl(config, { manifest, extension, installEmbedUrl: installation.embed?.url ?? null });
  if (!resolved.ok) {
    throw new PlatformError('conflict', 'embed_url_refused', `The embed URL from ${resolved.source} ${resolved.reason}`, {
      details: [`${resolved.source}: ${resolved.candidate}`],
    });
  }
  const url = resolved.url;
  url.searchParams.set('embedded', '1');
  url.searchParams.set('store_id', input.store.id);
  url.searchParams.set('store', input.store.subdomain);
  if (extension) {
    url.searchParams.set('extension', extension.handle);
    url.searchParams.set('target', extension.target);
  }
  return { url, source: resolved.source };
}

export type EmbedView = {
  url: string;
  source: EmbedUrlSource;
  extension: { handle: string; target: string } | null;
  session_token: string;
  token_type: typeof SESSION_TOKEN_TYPE_URN;
  expires_in: number;
  capabilities: Record<BridgeCapability, boolean>;
  capability_sources: Record<BridgeCapability, CapabilityLayer>;
};

/**
 * `GET /v1/app-store/installations/:id/embed`: what the admin needs to frame an installed app
 * for the signed-in merchant. The URL carries `embedded=1`, `store_id`, `store` (the subdomain)
 * and, for an extension, `extension` and `target`; never the session token, which is answered
 * beside it for the admin to hand over (docs/apps.md, Embedded apps).
 */
export async function getEmbed(
  platform: Platform,
  input: { issuer: string; store: ScopedStore; installationId: string; merchant: MerchantPrincipal; query: EmbedQuery },
): Promise<EmbedView> {
  const { installation, app, manifest } = await findEmbeddable(platform, input.store.id, input.installationId);
  const extension = adminExtension(manifest, input.query.extension);
  if (!extension && !manifest.embedded.enabled) {
    const handles = manifest.extensions.filter((e) => e.kind === 'admin_ui').map((e) => e.handle);
    throw new PlatformError(
      'conflict',
      'app_not_embedded',
      `The app does not open inside the admin (embedded.enabled is false)${handles.length ? `; its admin_ui extensions: ${handles.join(', ')}` : ''}`,
    );
  }
  const { url, source } = embedFrameUrl(platform.config, { manifest, installation, store: input.store, extension });
  const issued = await issueSessionToken(platform, { issuer: input.issuer, installation, app, merchant: input.merchant });
  const { capabilities, sources } = resolveCapabilities({ declared: manifest.bridge.capabilities, extension, installation: installation.bridge_capabilities });
  return {
    url: url.href,
    source,
    extension: extension ? { handle: extension.handle, target: extension.target } : null,
    session_token: issued.token,
    token_type: SESSION_TOKEN_TYPE_URN,
    expires_in: issued.expiresIn,
    capabilities,
    capability_sources: sources,
  };
}
