import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound, type ErrorCode } from '../../errors.js';
import type { AppPrincipal, MerchantPrincipal, ScopedStore } from '../../http/context.js';
import type { Platform } from '../../platform.js';
import { appSuspendedError, isAppSuspended } from '../../security/index.js';
import { liveRows } from '../extensions/resolution.js';
import { installations, type InstallationDocument } from '../installations/models.js';
import type { AppManifest, BridgeCapability, ManifestExtension } from '../manifest/types.js';
import { apps, type AppDocument } from '../partners/models.js';
import { requestIssuer } from '../oauth/issuer.js';
import { issueSessionToken } from '../session-tokens/service.js';
import { embedFrameUrl, resolveCapabilities } from './embedding.js';
import { bridgeFetch } from './fetch.js';

/**
 * The merchant admin's host of embedded apps (docs/app-bridge.md): the frame an app or one of its
 * admin_ui extensions opens in, and every action the framed app asks of the host, checked here,
 * on the server, each time it runs: the installation still active, the app not suspended, the
 * extension's row still live, the capability on as resolved now. The admin's pages call these
 * with the signed-in merchant's store (src/admin/apps/embed/).
 */

const HANDLE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The admin request's scheme and host: the admin's own origin, which no app's frame may have. */
export type AdminRequest = { protocol: string; host: string };
const originOf = (request: AdminRequest) => `${request.protocol}://${request.host}`;

type Hosted = { installation: InstallationDocument; app: AppDocument; manifest: AppManifest };

/** The store's active installation of the app with that handle, or 404 (none, uninstalled, unpublished); 403 `app_suspended` while an operator suspends it. */
async function hostedApp(platform: Platform, storeId: string, appHandle: string): Promise<Hosted> {
  const app = HANDLE.test(appHandle) && appHandle.length <= 60 ? await apps(platform.db).findOne({ handle: appHandle }) : null;
  const installation = app ? await installations(platform.db).findOne({ app_id: app._id, store_id: new ObjectId(storeId), status: 'active' }) : null;
  if (!app?.published || !installation) throw notFound('App');
  if (await isAppSuspended(platform, app._id.toHexString())) throw appSuspendedError();
  return { installation, app, manifest: app.published };
}

/** An admin_ui extension of the hosted app that counts now (its registry row enabled, of the current grant), or 404 `extension_not_found`. */
async function liveExtension(platform: Platform, storeId: string, appHandle: string, handle: string): Promise<ManifestExtension> {
  const [row] = HANDLE.test(handle) ? await liveRows(platform, storeId, 'admin_ui', { app_handle: { $in: [appHandle] }, handle: { $in: [handle] } }) : [];
  if (!row) throw new PlatformError('not_found', 'extension_not_found', `The app has no enabled admin_ui extension "${handle}" in this store`);
  return { kind: 'admin_ui', handle: row.handle, name: row.name, target: row.target, config: row.config };
}

/** What the admin frames: the app's name, the frame's URL (no token in it) and its origin, the only one the host talks to. */
export type AdminFrame = { appName: string; appHandle: string; url: string; origin: string; extension: { handle: string; name: string } | null };

/**
 * The frame of a hosted app (or of one of its extensions), its URL resolved as the embed's
 * (`getEmbed`). Refused, 409: an app that does not open in the admin (`app_not_embedded`), an
 * embed URL the rules refuse or one on the admin's own origin (`embed_url_refused`: a frame of the
 * admin's origin allowed to script and keep its origin could script the admin itself).
 */
function frameOf(platform: Platform, hosted: Hosted, input: { request: AdminRequest; store: ScopedStore; extension: ManifestExtension | null }): AdminFrame {
  const { manifest, installation } = hosted;
  if (!input.extension && !manifest.embedded.enabled)
    throw new PlatformError('conflict', 'app_not_embedded', 'This app does not open inside the admin (its manifest has embedded.enabled false)');
  const { url } = embedFrameUrl(platform.config, { manifest, installation, store: input.store, extension: input.extension });
  // The origin this request came to and the platform's published one (PUBLIC_BASE_URL), which may be another host behind a proxy.
  if (url.origin === originOf(input.request) || url.origin === new URL(requestIssuer(platform, input.request)).origin)
    throw new PlatformError(
      'conflict',
      'embed_url_refused',
      `The embed URL ${url.origin} is the admin's own origin: the admin frames apps only from their own origin`,
    );
  const extension = input.extension ? { handle: input.extension.handle, name: input.extension.name } : null;
  return { appName: manifest.name, appHandle: hosted.app.handle, url: url.href, origin: url.origin, extension };
}

/** The host page's frame of a store's installed app (`/admin/stores/<id>/apps/<handle>`). */
export async function adminAppFrame(platform: Platform, input: { request: AdminRequest; store: ScopedStore; appHandle: string }): Promise<AdminFrame> {
  return frameOf(platform, await hostedApp(platform, input.store.id, input.appHandle), { ...input, extension: null });
}

/**
 * The frames of the admin_ui extensions registered for an admin target (`admin.product.details`),
 * one per live row (enabled, of an active installation's current grant: a disabled or revoked one
 * is gone at the next page), read at request time. A row whose app is suspended or whose embed URL
 * is refused has no frame.
 */
export async function adminExtensionFrames(platform: Platform, input: { request: AdminRequest; store: ScopedStore; target: string }): Promise<AdminFrame[]> {
  const rows = await liveRows(platform, input.store.id, 'admin_ui', { target: input.target });
  const frames: AdminFrame[] = [];
  for (const row of rows) {
    try {
      const hosted = await hostedApp(platform, input.store.id, row.app_handle);
      const extension = { kind: 'admin_ui' as const, handle: row.handle, name: row.name, target: row.target, config: row.config };
      frames.push(frameOf(platform, hosted, { ...input, extension }));
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
    }
  }
  return frames;
}

// ── The host's actions ──────────────────────────────────────────────────────────────────────

const Base = { extension: z.string().max(60).optional() };
/** The bounds of a toast and a resize (docs/app-bridge.md, Messages). */
export const TOAST_MAX_CHARS = 200;
export const HEIGHT_BOUNDS = { min: 100, max: 10_000 } as const;

/** One action of the framed app, as the host script relays it (form fields: strings). */
export const HostAction = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('handshake'), ...Base }),
  z.strictObject({
    type: z.literal('toast'),
    ...Base,
    message: z.string().trim().min(1).max(TOAST_MAX_CHARS),
    tone: z.enum(['info', 'error']).default('info'),
    duration: z.coerce.number().int().min(1000).max(10_000).default(5000),
  }),
  z.strictObject({ type: z.literal('resize'), ...Base, height: z.coerce.number().finite() }),
  z.strictObject({ type: z.literal('api.fetch'), ...Base, method: z.string().min(1).max(10), path: z.string().min(1).max(2048) }),
  z.strictObject({ type: z.literal('navigation.redirect'), ...Base, to: z.string().min(1).max(2048) }),
]);
export type HostAction = z.infer<typeof HostAction>;

const CAPABILITY_OF: ReadonlyMap<HostAction['type'], BridgeCapability> = new Map([
  ['toast', 'toast'],
  ['resize', 'resize'],
  ['api.fetch', 'api.fetch'],
  ['navigation.redirect', 'navigation.redirect'],
] as const);

export type HostActionInput = { request: AdminRequest; store: ScopedStore; merchant: MerchantPrincipal; appHandle: string; action: HostAction };

/**
 * Run one action of a framed app for the signed-in merchant, after its checks (above); the
 * result is what the host answers the app. A refused action throws: 404 (uninstalled, an
 * extension no longer live), 403 `app_suspended` or `capability_disabled`, 400 for what the
 * action itself asks wrongly, and `api.fetch`'s read refused (a scope not granted) as its status.
 */
export async function runHostAction(platform: Platform, input: HostActionInput): Promise<Record<string, unknown>> {
  const { store, action } = input;
  const hosted = await hostedApp(platform, store.id, input.appHandle);
  const extension = action.extension === undefined ? null : await liveExtension(platform, store.id, input.appHandle, action.extension);
  const frame = frameOf(platform, hosted, { request: input.request, store, extension });
  const { capabilities } = resolveCapabilities({
    declared: hosted.manifest.bridge.capabilities,
    extension,
    installation: hosted.installation.bridge_capabilities,
  });
  const needs = CAPABILITY_OF.get(action.type);
  if (needs && !capabilities[needs])
    throw new PlatformError('not_allowed', 'capability_disabled', `The bridge capability ${needs} is not enabled for this app in this store`);

  switch (action.type) {
    case 'handshake': {
      const issued = await issueSessionToken(platform, {
        issuer: requestIssuer(platform, input.request),
        installation: hosted.installation,
        app: hosted.app,
        merchant: input.merchant,
      });
      return {
        session_token: issued.token,
        expires_in: issued.expiresIn,
        store: { id: store.id, subdomain: store.subdomain, name: store.name },
        locale: store.locale,
        capabilities,
        extension: extension?.handle ?? null,
      };
    }
    case 'toast':
      return { message: action.message, tone: action.tone, duration: action.duration };
    case 'resize':
      return { height: Math.round(Math.min(HEIGHT_BOUNDS.max, Math.max(HEIGHT_BOUNDS.min, action.height))) };
    case 'api.fetch':
      return fetchFor(platform, hosted, input, action);
    case 'navigation.redirect':
      return redirectTarget(input, frame, action.to);
  }
}

/** A bridge read as the installation (its granted scopes, the approved read paths, GET only): `{ status, data }`, or the read's refusal as an error of its status. */
async function fetchFor(
  platform: Platform,
  hosted: Hosted,
  input: HostActionInput,
  action: { method: string; path: string },
): Promise<Record<string, unknown>> {
  const principal: AppPrincipal = {
    kind: 'app',
    appId: hosted.app._id.toHexString(),
    installationId: hosted.installation._id.toHexString(),
    storeId: input.store.id,
    scopes: hosted.installation.scopes,
    onlineMerchantId: input.merchant.merchantId,
  };
  const result = await bridgeFetch(platform, principal, input.store, { method: action.method, path: action.path, store_id: input.store.id });
  if (result.ok) return { status: result.status, data: result.data };
  const kind = result.status === 404 ? 'not_found' : result.status === 403 ? 'not_allowed' : result.status === 400 ? 'invalid_data' : 'conflict';
  // The read's code is one of the platform's (bridgeFetch answers a PlatformError's, or insufficient_scope).
  throw new PlatformError(kind, result.error!.code as ErrorCode, result.error!.message, result.error!.details ? { details: result.error!.details } : {});
}

/**
 * Where a redirect may go: a path of this store's admin (`/admin/stores/<id>…`, the top window
 * goes there) or a URL of the frame's own origin (the frame goes there). Anything else (another
 * origin, another store's admin, `javascript:`, `//host`) is 400 `redirect_refused`.
 */
function redirectTarget(input: HostActionInput, frame: AdminFrame, to: string): Record<string, unknown> {
  const refused = () =>
    new PlatformError(
      'invalid_data',
      'redirect_refused',
      `A redirect goes to a path of this store's admin (/admin/stores/${input.store.id}/…) or to the app's own origin (${frame.origin})`,
    );
  if (/[\\\s]/.test(to) || [...to].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw refused();
  if (to.startsWith('/') && !to.startsWith('//')) {
    const url = new URL(to, originOf(input.request));
    const prefix = `/admin/stores/${input.store.id}`;
    if (url.origin !== originOf(input.request) || url.hash || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) throw refused();
    return { target: 'admin', url: `${url.pathname}${url.search}` };
  }
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    throw refused();
  }
  if (url.origin !== frame.origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw refused();
  return { target: 'app', url: url.href };
}
