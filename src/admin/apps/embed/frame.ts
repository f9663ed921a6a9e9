import type { AdminFrame } from '../../../apps/index.js';
import { html, raw, type Markup } from '../../../html.js';
import { storePath, type StorePage } from '../../request.js';

/**
 * A framed app in the admin (docs/app-bridge.md, Security): the `<iframe>` one host of the bridge
 * script (src/browser/app-bridge-host.ts) talks to, and the page's one live region its toasts
 * appear in. The frame's sandbox, one token each:
 * - `allow-scripts`: an app is script; without it nothing runs and no message is sent;
 * - `allow-same-origin`: the app keeps its own origin (its cookies, its storage, its `fetch` to its
 *   backend, and the origin the host checks every message against: an opaque origin would be
 *   "null", which the host cannot tell from any other sandboxed frame). Safe only because the
 *   frame's origin is never the admin's (refused before a frame is drawn);
 * - `allow-forms`: an app's own settings forms post to its backend;
 * - `allow-popups` and `allow-popups-to-escape-sandbox`: a link the app opens in a new tab (its
 *   help, its billing page) opens as a normal page.
 * Never `allow-top-navigation` (a redirect of the admin goes through the bridge, checked), nor
 * `allow-modals`, `allow-downloads` or `allow-pointer-lock`. `allow=""` grants no powerful feature
 * (camera, geolocation, payment, clipboard), and `referrerpolicy="strict-origin"` tells the app the
 * admin's origin and never an admin path.
 */
export const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';

/** The frames' and toasts' look; constant markup (the pages' one stylesheet has no app parts). */
const EMBED_STYLE = raw(`<style>
.app-frame{display:block;width:100%;height:600px;border:1px solid var(--line);border-radius:10px;background:var(--card)}
.app-frame--extension{height:200px}
.app-toasts{position:fixed;right:16px;bottom:16px;z-index:20;display:flex;flex-direction:column;gap:8px;max-width:min(360px,calc(100vw - 32px))}
.app-toast{background:var(--top);color:#fff;border-radius:8px;padding:10px 14px;overflow-wrap:anywhere;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.app-toast--error{background:var(--bad)}
.app-status:empty{display:none}
</style>`);

/** The region every framed app's toasts are announced in (one per page, polite: a toast never interrupts). */
export const toastRegion = (): Markup => html`${EMBED_STYLE}<div class="app-toasts" role="status" aria-live="polite" data-app-toasts></div>`;

/**
 * The frame of an app (or of one of its extensions): the embed URL (no token in it), the one origin
 * the host accepts messages from and posts to, and where the host asks the server (the bridge's
 * endpoint, with the page's CSRF token).
 */
export function appFrame(s: StorePage, frame: AdminFrame, o: { title: string; extension?: boolean }): Markup {
  return html`<p class="app-status notice" data-app-status></p>
    <iframe class="app-frame${o.extension ? ' app-frame--extension' : ''}" title="${o.title}" src="${frame.url}" sandbox="${FRAME_SANDBOX}" allow=""
      referrerpolicy="strict-origin" data-app-bridge data-origin="${frame.origin}" data-endpoint="${storePath(s.store, `/apps/${frame.appHandle}/bridge`)}"
      data-csrf="${s.viewer.csrf}"${frame.extension ? html` data-extension="${frame.extension.handle}"` : null}></iframe>`;
}
