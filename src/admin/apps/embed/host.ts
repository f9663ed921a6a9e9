import { adminAppFrame, HostAction, runHostAction, type AdminFrame } from '../../../apps/index.js';
import { PlatformError } from '../../../errors.js';
import { html } from '../../../html.js';
import { toPlatformError } from '../../../http/errors.js';
import { problemOf } from '../../../http/page-errors.js';
import { heading } from '../../../http/ui/parts.js';
import { storePage } from '../../layout.js';
import { storePath, type StorePage } from '../../request.js';
import { appFrame, toastRegion } from './frame.js';

/**
 * The embedded app host (docs/admin.md, The embedded app host; docs/app-bridge.md): the page
 * `/admin/stores/<id>/apps/<handle>` that frames the store's installed app, and the bridge
 * endpoint its script asks before it answers the app, `POST …/apps/<handle>/bridge`, under the
 * admin's rule (the merchant's browser session, the store theirs, the session's CSRF token).
 */

export type AppHostPage = StorePage<{ storeId: string; handle: string }>;

const backToApps = (s: AppHostPage) => html`<p><a href="${storePath(s.store, '/apps')}">« Apps</a></p>`;

/** The host page: the app framed, its toasts' region, and plainly what is missing without JavaScript. A refused frame is a page that says why, with no frame. */
export async function appHostPage(s: AppHostPage): Promise<void> {
  let frame: AdminFrame;
  try {
    frame = await adminAppFrame(s.platform, { request: s.ctx, store: s.store, appHandle: s.params.handle });
  } catch (err) {
    // 404 stays the admin's 404 page; an app that cannot be framed here is a page that says why.
    if (!(err instanceof PlatformError) || err.kind === 'not_found') throw err;
    const status = err.kind === 'not_allowed' ? 403 : 409;
    const body = html`${backToApps(s)}${heading('This app cannot open here')}
      <div class="card"><p>${err.message}.</p><p><a href="${storePath(s.store, '/apps')}">Back to your installed apps</a></p></div>`;
    return s.render(storePage(s, 'apps', { title: 'App', body }), status);
  }
  const body = html`${backToApps(s)}${heading(frame.appName)}
    <noscript>
      <style>.app-frame{display:none !important}</style>
      <div class="card"><p><strong>${frame.appName} needs JavaScript.</strong> Apps run inside the admin with JavaScript, which is off in this browser.
      Turn it on and reload this page, or go back to <a href="${storePath(s.store, '/apps')}">your installed apps</a>.</p></div>
    </noscript>
    ${appFrame(s, frame, { title: frame.appName })}${toastRegion()}`;
  s.render(storePage(s, 'apps', { title: frame.appName, body, scripts: ['app-bridge-host'] }), 200, { frames: [frame.origin] });
}

/**
 * `POST …/apps/<handle>/bridge`: one action of a framed app (its form: `type`, `extension` for an
 * extension's frame, the action's fields), answered as JSON `{ ok: true, result }` or, with the
 * refusal's 4xx status, `{ ok: false, error: { code, message } }`.
 */
export async function bridgeAction(s: AppHostPage): Promise<void> {
  const answer = (status: number, body: Record<string, unknown>) => {
    s.ctx.status = status;
    s.ctx.type = 'application/json';
    s.ctx.body = body;
  };
  const fields = Object.fromEntries([...s.form].filter(([name]) => name !== 'csrf_token'));
  const parsed = HostAction.safeParse(fields);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.') || 'type'}: ${i.message}`);
    return answer(400, { ok: false, error: { code: 'invalid_input', message: 'The message has invalid fields', details } });
  }
  try {
    const result = await runHostAction(s.platform, {
      request: s.ctx,
      store: s.store,
      merchant: s.viewer.merchant,
      appHandle: s.params.handle,
      action: parsed.data,
    });
    answer(200, { ok: true, result });
  } catch (err) {
    if (!toPlatformError(err)) throw err;
    const problem = problemOf(err, s.ctx.state.requestId);
    answer(problem.status, { ok: false, error: { code: problem.code, message: problem.message } });
  }
}
