import {
  BRIDGE_CAPABILITIES,
  findInstalledApp,
  listInstalledApps,
  requestIssuer,
  startInstall,
  uninstall,
  updateEmbedding,
  type BridgeCapability,
  type InstalledApp,
} from '../../apps/index.js';
import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, emptyState, facts, heading, link, table, when } from '../../http/ui/parts.js';
import { PageQuery } from '../../pagination.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, type StorePage } from '../request.js';
import { APPS_STYLE, appStorePath, appTile, appsPath, scopeList } from './parts.js';

/**
 * The store's installed apps (docs/admin.md, Apps): the installations of
 * `GET /v1/app-store/installations` with their apps, and a page per installation under its app's
 * handle (`/apps/<handle>/settings`): its permissions, the bridge capabilities and embed URL of
 * `PATCH …/installations/:id/embedding` (`updateEmbedding`, with its rules), Update permissions
 * (the install start again, so the consent page shows what changes) and Uninstall
 * (`DELETE …/installations/:id`) after a confirm step that says what follows.
 */

export type AppPage = StorePage<{ storeId: string; handle: string }>;

/** The bridge capabilities in words, as the settings' switches name them (docs/apps.md, Capabilities). */
const CAPABILITY_WORDS: Record<BridgeCapability, { label: string; hint: string }> = {
  'api.fetch': { label: 'Read your store’s data from inside the admin', hint: 'api.fetch: reads within the permissions it was granted' },
  toast: { label: 'Show messages in the admin', hint: 'toast: a short notice in the corner of the page' },
  resize: { label: 'Set its height in the admin', hint: 'resize: within the admin’s bounds' },
  'navigation.redirect': { label: 'Send you to another admin page or its own site', hint: 'navigation.redirect: off unless you turn it on here' },
};

const statusBadge = (a: InstalledApp) => (a.installation.status === 'active' ? badge('active', 'ok') : badge('uninstalled'));

export async function installedAppsPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, PageQuery.strict());
  const page = await listInstalledApps(s.platform, s.store.id, query);
  const path = appsPath(s);
  // Uninstalled apps stay listed, greyed: their page shows the revoked extensions and run log, and when the store's data is due to be erased.
  const rows = page.items.map((a) => {
    const active = a.installation.status === 'active';
    const name = html`<span class="app-head">${appTile(a.app.name)}<span>${link(appsPath(s, `/${a.app.handle}/settings`), a.app.name)}<br /><span class="muted"
          >by ${a.app.developer.name || 'an App Store partner'}</span
        ></span></span>`;
    return [
      active ? name : html`<span class="muted" style="opacity:.7">${name}</span>`,
      statusBadge(a),
      active ? when(a.installation.installed_at) : html`<span class="muted">Uninstalled ${when(a.installation.uninstalled_at)}</span>`,
      html`${a.installation.scopes.length} ${a.installation.scopes.length === 1 ? 'permission' : 'permissions'}${
        active && a.missing_scopes.length ? html`<br />${badge('asks for more', 'warn')}` : null
      }`,
      active && a.app.embedded ? html`<a class="button button--secondary" href="${appsPath(s, `/${a.app.handle}`)}">Open</a>` : null,
    ];
  });
  const body = html`${APPS_STYLE}<div class="actions" style="justify-content:space-between;align-items:center">
      ${heading('Apps')}<a class="button" href="${appStorePath(s)}">Visit the App Store</a>
    </div>
    ${table({
      label: 'Installed apps',
      headings: ['App', 'Status', 'Installed', 'Permissions', 'Open'],
      rows,
      stack: true,
      empty: emptyState('No apps installed yet. Apps add features to your store: find one in the App Store.', {
        href: appStorePath(s),
        label: 'Visit the App Store',
      }),
    })}${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'apps', { title: 'Apps', body }));
}

/** The capabilities form's values: each switch as the embed has it now. */
const capabilityValues = (a: InstalledApp) => new Map(BRIDGE_CAPABILITIES.map((c) => [c, a.capabilities[c] ? 'on' : '']));

/** A capability's switch: off and disabled when the app does not declare it (it cannot be given one it does not use). */
function capabilitySwitch(form: FormState, a: InstalledApp, c: BridgeCapability): Markup {
  const declared = a.declared.includes(c);
  const id = `cap-${c.replace('.', '-')}`;
  const error = form.errors.get(c);
  const hint = declared ? CAPABILITY_WORDS[c].hint : `${CAPABILITY_WORDS[c].hint}. The app does not use it.`;
  return html`<div class="switch">
    <input type="checkbox" id="${id}" name="${c}" value="on"${form.values.get(c) === 'on' ? html` checked` : null}${declared ? null : html` disabled`}
      aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${error ? html` aria-invalid="true"` : null} />
    <div>
      <label for="${id}">${CAPABILITY_WORDS[c].label}</label><br /><span id="${id}-hint" class="field__hint">${hint}</span>${
        error ? html`<br /><span id="${id}-error" class="field__error">${error}</span>` : null
      }
    </div>
  </div>`;
}

export type SettingsForms = { capabilities?: FormState; embed?: FormState };

export async function appSettingsPage(s: AppPage, forms: SettingsForms = {}, status = 200): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const at = appsPath(s, `/${a.app.handle}`);
  const active = a.installation.status === 'active';
  const capabilities = forms.capabilities ?? blankForm(capabilityValues(a));
  const embed = forms.embed ?? blankForm(new Map([['embed_url', a.embed_url ?? '']]));
  const permissions = html`<h2>Permissions</h2>
    <div class="card">
      ${scopeList(a.installation.scopes, 'None.')}
      ${
        active && a.missing_scopes.length
          ? html`<h3>The app now asks for more</h3>
              ${scopeList(a.missing_scopes)}
              <form method="post" action="${at}/permissions">
                ${csrfInput(s.viewer.csrf)}
                <p class="muted">The app asks for your consent again, showing only what changes.</p>
                <button class="button" type="submit">Update permissions</button>
              </form>`
          : null
      }
    </div>`;
  const manage = active
    ? html`<h2>In the admin</h2>
        <form class="card" method="post" action="${at}/capabilities" novalidate>
          ${csrfInput(s.viewer.csrf)}${errorSummary(capabilities.problems)}
          <p class="muted" style="margin-top:0">
            What the app may do when it opens inside your admin (its page${a.app.extension_kinds.includes('admin_ui') ? ' and its blocks on other pages' : ''}).
          </p>
          ${BRIDGE_CAPABILITIES.map((c) => capabilitySwitch(capabilities, a, c))}
          <button class="button" type="submit">Save</button>
        </form>
        <form class="card" method="post" action="${at}/embed-url" novalidate>
          ${csrfInput(s.viewer.csrf)}${errorSummary(embed.problems)}
          ${field(embed, 'embed_url', 'Embed URL', {
            type: 'url',
            hint: 'Where the admin opens the app from, when not its own address (an https address the partner gave you); leave blank for the app’s own',
            attrs: html`spellcheck="false" autocomplete="off"`,
          })}
          <button class="button" type="submit">Save embed URL</button>
        </form>
        <h2>Extensions and functions</h2>
        <p><a href="${at}/extensions">The app’s extensions and Checkout Functions in your store »</a></p>
        <h2>Uninstall</h2>
        <div class="card">
          <p class="muted" style="margin-top:0">The app loses its access to your store at once.</p>
          <a class="button button--danger" href="${at}/uninstall">Uninstall ${a.app.name}</a>
        </div>`
    : html`<h2>Extensions and functions</h2>
        <p><a href="${at}/extensions">Its revoked extensions and functions, and their run log »</a></p>
        <p class="actions"><a class="button" href="${appStorePath(s, `/${a.app.id}`)}">Install again from the App Store</a></p>`;
  const body = html`${APPS_STYLE}<p><a href="${appsPath(s)}">« Apps</a></p>
    <div class="actions" style="justify-content:space-between;margin-bottom:14px">
      <div class="app-head">
        ${appTile(a.app.name, true)}
        <div>
          <h1 style="margin:0">${a.app.name}</h1>
          <p class="muted" style="margin:2px 0 0">by ${a.app.developer.name || 'an App Store partner'} · ${statusBadge(a)}</p>
        </div>
      </div>
      ${active && a.app.embedded ? html`<a class="button" href="${at}">Open</a>` : null}
    </div>
    ${facts([
      ['Status', active ? 'Installed' : 'Uninstalled'],
      ['Installed', when(a.installation.installed_at)],
      ...(active ? [] : ([['Uninstalled', when(a.installation.uninstalled_at)]] as const)),
      ['Version', a.app.version],
      ['Listing', link(appStorePath(s, `/${a.app.id}`), 'in the App Store')],
    ])}
    ${permissions}${manage}`;
  s.render(storePage(s, 'apps', { title: a.app.name, body }), status);
}

/** The switches as `updateEmbedding`'s settings: each declared capability on or off, and any other sent on (which it refuses at its field). */
const capabilitySettings = (a: InstalledApp, form: ReadonlyMap<string, string>) =>
  Object.fromEntries(BRIDGE_CAPABILITIES.flatMap((c) => (a.declared.includes(c) || form.get(c) === 'on' ? [[c, form.get(c) === 'on']] : [])));

/** A refusal of `updateEmbedding`: each issue at its field (`bridge_capabilities.toast` at the toast switch, `embed_url` at the URL). */
function refusedSettings(values: ReadonlyMap<string, string>, err: unknown, field: (path: string) => string | null): FormState {
  if (!(err instanceof PlatformError) || !err.extra.issues?.length) return refusedForm(values, err, new Set());
  const errors = new Map<string, string>();
  const problems: string[] = [];
  for (const issue of err.extra.issues) {
    const at = field(issue.path);
    if (at) errors.set(at, issue.message);
    else problems.push(issue.message);
  }
  return { values, errors, problems };
}

export async function capabilitiesAction(s: AppPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  try {
    await updateEmbedding(s.platform, s.store.id, a.installation.id, { bridge_capabilities: capabilitySettings(a, s.form) });
  } catch (err) {
    const form = refusedSettings(s.form, err, (path) => BRIDGE_CAPABILITIES.find((c) => path === `bridge_capabilities.${c}`) ?? null);
    return appSettingsPage(s, { capabilities: form }, 400);
  }
  s.seeOther(appsPath(s, `/${a.app.handle}/settings`), 'The app’s capabilities are saved.');
}

export async function embedUrlAction(s: AppPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const url = (s.form.get('embed_url') ?? '').trim();
  try {
    await updateEmbedding(s.platform, s.store.id, a.installation.id, { embed_url: url === '' ? null : url });
  } catch (err) {
    return appSettingsPage(s, { embed: refusedSettings(s.form, err, (path) => (path === 'embed_url' ? 'embed_url' : null)) }, 400);
  }
  s.seeOther(appsPath(s, `/${a.app.handle}/settings`), url ? 'The embed URL is saved.' : 'The app opens from its own address again.');
}

/** Update permissions: the install start again; the consent page then shows what the app asks for beyond what it has. */
export async function permissionsAction(s: AppPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const start = await startInstall(s.platform, requestIssuer(s.platform, s.ctx), a.app.id, { id: s.store.id, subdomain: s.store.subdomain });
  s.seeOther(start.install_url);
}

/** A number of seconds in the largest whole unit: `48 hours`, `15 minutes`. */
function duration(seconds: number): string {
  const [n, unit] =
    seconds % 86_400 === 0 && seconds > 172_800
      ? [seconds / 86_400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : seconds % 60 === 0
          ? [seconds / 60, 'minute']
          : [seconds, 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Uninstall's confirm step: what the installations service does, in the order it happens. */
export async function confirmUninstall(s: AppPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  const at = appsPath(s, `/${a.app.handle}`);
  if (a.installation.status !== 'active') return s.seeOther(`${at}/settings`, `${a.app.name} is not installed.`);
  const redact = duration(s.platform.config.apps.shopRedactDelaySeconds);
  const body = html`<div class="narrow" style="max-width:620px">
    <form class="card" method="post" action="${at}/uninstall">
      ${csrfInput(s.viewer.csrf)}
      <h1>Uninstall ${a.app.name}?</h1>
      <p>From ${s.store.name}, at once:</p>
      <ul>
        <li>Its access to your store ends: every token it holds stops working, so its calls to your store’s data are refused.</li>
        <li>Its webhooks stop: it hears of no more orders, products or customers, only that it was uninstalled.</li>
        <li>Its extensions and Checkout Functions in your store are revoked: they leave your admin, your theme and your checkout, and do not come back.</li>
      </ul>
      <p>Then, ${redact} later, the app is asked to erase your store’s data (a <code>shop.redact</code> request). Installing it again before then cancels that request; installing it again starts afresh, without the settings it kept for your store.</p>
      <div class="actions"><button class="button button--danger" type="submit">Uninstall ${a.app.name}</button><a href="${at}/settings">Keep it</a></div>
    </form>
  </div>`;
  s.render(storePage(s, 'apps', { title: `Uninstall ${a.app.name}?`, body }));
}

export async function uninstallAction(s: AppPage): Promise<void> {
  const a = await findInstalledApp(s.platform, s.store.id, s.params.handle);
  if (a.installation.status === 'active') await uninstall(s.platform, s.store.id, a.installation.id);
  s.seeOther(appsPath(s), `${a.app.name} is uninstalled.`);
}
