import { adminExtensionFrames } from '../../../apps/index.js';
import { html, type Markup } from '../../../html.js';
import type { FramingPolicy } from '../../../http/page.js';
import type { ScriptName } from '../../../http/ui/scripts.js';
import type { StorePage } from '../../request.js';
import { appFrame, toastRegion } from './frame.js';

/** The admin targets an admin_ui extension attaches to (the manifest's `target`): a product's and an order's page. */
export type AdminTarget = 'admin.product.details' | 'admin.order.details';

/** What a page that apps extend adds: the extensions' cards, the host script, and a framing policy naming their origins (none without an extension). */
export type ExtensionCards = { markup: Markup | null; scripts: readonly ScriptName[]; policy: FramingPolicy | undefined };

/**
 * The store's live admin_ui extensions of `target` (docs/admin.md, The embedded app host), each a
 * card with its frame speaking the bridge (one host per frame), read at request time: a disabled
 * or revoked row, an uninstalled or suspended app, has no card on the next page.
 */
export async function extensionCards(s: StorePage, target: AdminTarget): Promise<ExtensionCards> {
  const frames = await adminExtensionFrames(s.platform, { request: s.ctx, store: s.store, target });
  if (frames.length === 0) return { markup: null, scripts: [], policy: undefined };
  const markup = html`<h2>Apps</h2>
    ${frames.map(
      (f) => html`<section class="card" aria-label="${f.extension!.name} · ${f.appName}">
        <h3 style="margin-top:0">${f.extension!.name} <span class="muted">· ${f.appName}</span></h3>
        <noscript><p>This app needs JavaScript, which is off in this browser.</p></noscript>
        ${appFrame(s, f, { title: `${f.extension!.name} (${f.appName})`, extension: true })}
      </section>`,
    )}${toastRegion()}`;
  return { markup, scripts: ['app-bridge-host'], policy: { frames: [...new Set(frames.map((f) => f.origin))] } };
}
