import { findCollectionByHandle, findProductByHandle, listCollections, listProducts } from '../../catalog/index.js';
import { BLOG_HANDLE, findPublishedPage, MAX_HANDLE, getMenu, listPages, PutMenuBody, putMenu, type MenuView } from '../../content/index.js';
import { PlatformError, type InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, formWithProblem, hiddenInput, select, type FormState } from '../../http/ui/forms.js';
import { emptyState, heading } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { contentTabs } from './tabs.js';

/**
 * The shop's main menu in the admin (docs/admin.md, Content): its links in order, each a row of
 * one form (title and address, saved together), moved up or down or removed by buttons of a
 * second form, and added by a third that picks a collection, a product, a page or takes an
 * address. Every change is the whole menu through the content service of `PUT
 * /v1/menus/main-menu`, checked by its schema (`PutMenuBody`: the addresses a link may have);
 * a link into the shop must also find what it names, as shoppers would.
 */

/** The menu the shop's header prints (src/rendering/page.ts). */
const MAIN_MENU = 'main-menu';
/** How many of each kind the add form offers; others are typed as their path. */
const OFFERED = 100;

type Link = { title: string; url: string };

/** The main menu, or null while the store has none. */
async function mainMenu(s: StorePage): Promise<MenuView | null> {
  try {
    return await getMenu(s.platform, s.store.id, MAIN_MENU);
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}

/** The menu's version as its forms carry it: a change made from a page of an older one is refused, as its positions may have moved. */
const versionOf = (menu: MenuView | null) => menu?.updated_at ?? 'none';

const SHOP_PATH = /^\/(products|collections|pages|blogs)\/([^/?#]+)\/?(?:[?#].*)?$/;

/**
 * What a link into the shop names, as the shop finds it: an active product, a collection, a
 * published page, the blog; its title, or the problem a shopper would meet (a 404). Addresses of
 * no such kind (`/`, `/search`, another site) are the schema's alone: null.
 */
async function linkTarget(s: StorePage, url: string): Promise<{ title: string } | { problem: string } | null> {
  if (url === '/') return { title: 'Home' };
  const m = SHOP_PATH.exec(url);
  if (!m) return null;
  const [, kind, handle] = m as unknown as [string, string, string];
  // No handle is longer than 255 characters (src/content/schemas.ts): a longer one names nothing, unread.
  const named = handle.length <= MAX_HANDLE;
  if (kind === 'products') {
    const p = named ? await findProductByHandle(s.platform, s.store.id, handle) : null;
    return p?.status === 'active' ? { title: p.title } : { problem: `No active product has the handle “${handle}”: shoppers would find nothing there` };
  }
  if (kind === 'collections') {
    if (handle === 'all') return { title: 'All products' };
    const c = named ? await findCollectionByHandle(s.platform, s.store.id, handle) : null;
    return c ? { title: c.title } : { problem: `No collection has the handle “${handle}”` };
  }
  if (kind === 'pages') {
    const p = named ? await findPublishedPage(s.platform, s.store.id, handle) : null;
    return p ? { title: p.title } : { problem: `No published page has the handle “${handle}”: shoppers would find nothing there` };
  }
  return handle === BLOG_HANDLE ? { title: 'Blog' } : { problem: `The shop’s blog is /blogs/${BLOG_HANDLE}` };
}

/** The issues of links into the shop whose target is missing, each at `path(index)`. */
async function targetIssues(s: StorePage, links: readonly Link[], path: (i: number) => string): Promise<InputIssue[]> {
  const found = await Promise.all(links.map((l) => linkTarget(s, l.url)));
  return found.flatMap((t, i) => (t && 'problem' in t ? [{ path: path(i), message: t.problem }] : []));
}

/** What the add form offers to link to: the shop's own pages, then the first collections, published pages and active products. */
async function targets(s: StorePage): Promise<{ value: string; label: string }[]> {
  const [collections, pages, products] = await Promise.all([
    listCollections(s.platform, s.store.id, { limit: OFFERED }),
    listPages(s.platform, s.store.id, { limit: OFFERED, published: 'true' }),
    listProducts(s.platform, s.store.id, { status: 'active', sort: 'title', limit: OFFERED }),
  ]);
  return [
    { value: '/', label: 'Home' },
    { value: '/collections/all', label: 'All products' },
    { value: `/blogs/${BLOG_HANDLE}`, label: 'Blog' },
    ...collections.items.map((c) => ({ value: `/collections/${c.handle}`, label: `Collection: ${c.title}` })),
    ...pages.items.map((p) => ({ value: `/pages/${p.handle}`, label: `Page: ${p.title}` })),
    ...products.items.map((p) => ({ value: `/products/${p.handle}`, label: `Product: ${p.title}` })),
  ];
}

/** The links form's values: each link a row of `title_<i>` and `url_<i>`. */
function linkValues(links: readonly Link[], version: string): Map<string, string> {
  const values = new Map([
    ['rows', String(links.length)],
    ['version', version],
  ]);
  links.forEach((l, i) => {
    values.set(`title_${i}`, l.title);
    values.set(`url_${i}`, l.url);
  });
  return values;
}

/** The rows a sent links form has, bounded by the API's 50 links. */
const rowsOf = (form: ReadonlyMap<string, string>) => Math.min(Math.max(Math.floor(Number(form.get('rows'))) || 0, 0), 50);

/** A link's row: its fields, and the buttons (of the move form) that move it where it can go or remove it. */
function linkRow(form: FormState, i: number, rows: number): Markup {
  // Short words seen ("Up"); a reader hears the whole action ("Move up link 2").
  const button = (op: string, seen: string, heard: string) =>
    html`<button class="button button--secondary" type="submit" form="menu-move" name="op" value="${op}:${i}" aria-label="${heard} link ${i + 1}">${seen}</button>`;
  return html`<fieldset class="card">
    <legend>Link ${i + 1}</legend>
    <div class="grid" style="grid-template-columns:repeat(auto-fit,minmax(200px,1fr))">
      ${field(form, `title_${i}`, 'Title', { required: true })}${field(form, `url_${i}`, 'Address', { required: true, attrs: html`autocapitalize="none" spellcheck="false"` })}
      <div class="actions" style="align-self:end;margin-bottom:14px">
        ${i > 0 ? button('up', 'Up', 'Move up') : null}${i < rows - 1 ? button('down', 'Down', 'Move down') : null}${button('remove', 'Remove', 'Remove')}
      </div>
    </div>
  </fieldset>`;
}

export async function menuPage(s: StorePage, forms: { links?: FormState; add?: FormState } = {}, status = 200): Promise<void> {
  const [menu, offered] = await Promise.all([mainMenu(s), targets(s)]);
  const at = storePath(s.store, '/content/menu');
  const version = versionOf(menu);
  const links = forms.links ?? blankForm(linkValues(menu?.items ?? [], version));
  const rows = rowsOf(links.values);
  const add = forms.add ?? blankForm();
  const body = html`${heading('Content', 'The links of the shop’s header, in order: to a collection, a product, a page or any address.')}${contentTabs(s, 'menu')}
    ${
      rows
        ? html`<form method="post" action="${at}" novalidate>
              ${csrfInput(s.viewer.csrf)}${hiddenInput('rows', String(rows))}${hiddenInput('version', version)}${errorSummary(links.problems)}
              ${Array.from({ length: rows }, (_, i) => linkRow(links, i, rows))}
              <p><button class="button" type="submit">Save links</button></p>
            </form>
            <form id="menu-move" method="post" action="${at}/move">${csrfInput(s.viewer.csrf)}${hiddenInput('version', version)}</form>`
        : html`${errorSummary(links.problems)}${emptyState('The main menu has no links yet, so the shop’s header links to all products. Add the first link below.')}`
    }
    <h2>Add a link</h2>
    <form class="card" method="post" action="${at}/add" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(add.problems)}
      ${select(add, 'target', 'Links to', offered, { placeholder: 'Choose…' })}
      ${field(add, 'url', 'Or an address', { hint: 'A path in the shop (/products/<handle>) or an http(s) address; used instead of the choice above', attrs: html`autocapitalize="none" spellcheck="false"` })}
      ${field(add, 'title', 'Title', { hint: 'Empty: the title of what it links to' })}
      <button class="button" type="submit">Add link</button>
    </form>`;
  s.render(storePage(s, 'content', { title: 'Main menu', body }), status);
}

/** The menu as the API's body checked by its schema, each link's issue at `fieldOf(index, key)`; `more` the issues found besides. */
function checkedMenu(title: string, links: Link[], fieldOf: (i: number, key: string) => string, more: InputIssue[]) {
  const parsed = PutMenuBody.safeParse({ title, items: links });
  const issues = parsed.success
    ? more
    : [
        ...zodIssues(parsed.error).map((issue) => {
          const m = /^items\.(\d+)\.(title|url)/.exec(issue.path);
          return m ? { ...issue, path: fieldOf(Number(m[1]), m[2]!) } : issue;
        }),
        ...more,
      ];
  return parsed.success && !issues.length ? { data: parsed.data } : { issues };
}

/** The menu changed since the page was opened: it is shown as it is now, nothing saved. */
const stale = (s: StorePage, menu: MenuView | null) =>
  menuPage(
    s,
    {
      links: formWithProblem(
        linkValues(menu?.items ?? [], versionOf(menu)),
        'The menu changed since this page was opened. Here it is as it is now: make your change again.',
      ),
    },
    409,
  );

export async function saveMenuAction(s: StorePage): Promise<void> {
  const menu = await mainMenu(s);
  if (s.form.get('version') !== versionOf(menu)) return stale(s, menu);
  // A row whose title and address were both cleared is a link removed.
  const rows = Array.from({ length: rowsOf(s.form) }, (_, i) => i).filter((i) => `${s.form.get(`title_${i}`) ?? ''}${s.form.get(`url_${i}`) ?? ''}`.trim());
  const links = rows.map((i) => ({ title: s.form.get(`title_${i}`) ?? '', url: (s.form.get(`url_${i}`) ?? '').trim() }));
  const fieldOf = (n: number, key: string) => `${key}_${rows[n] ?? 0}`;
  const checked = checkedMenu(menu?.title ?? 'Main menu', links, fieldOf, await targetIssues(s, links, (n) => fieldOf(n, 'url')));
  if (!checked.data) {
    const fields = new Set(Array.from({ length: rowsOf(s.form) }, (_, i) => [`title_${i}`, `url_${i}`]).flat());
    return menuPage(s, { links: formWithIssues(s.form, checked.issues, fields) }, 400);
  }
  await putMenu(s.platform, s.store.id, MAIN_MENU, checked.data);
  s.seeOther(storePath(s.store, '/content/menu'), 'The main menu is saved.');
}

export async function moveMenuAction(s: StorePage): Promise<void> {
  const at = storePath(s.store, '/content/menu');
  const menu = await mainMenu(s);
  const m = /^(up|down|remove):(\d{1,2})$/.exec(s.form.get('op') ?? '');
  const items = [...(menu?.items ?? [])];
  const i = Number(m?.[2]);
  if (!m || s.form.get('version') !== versionOf(menu) || i >= items.length) return stale(s, menu);
  const [link] = m[1] === 'remove' ? items.splice(i, 1) : [items[i]!];
  const j = m[1] === 'up' ? i - 1 : i + 1;
  if (m[1] !== 'remove') {
    if (j < 0 || j >= items.length) return s.seeOther(at);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  await putMenu(s.platform, s.store.id, MAIN_MENU, { title: menu!.title, items });
  s.seeOther(at, m[1] === 'remove' ? `The link “${link!.title}” is removed.` : `The link “${link!.title}” is moved ${m[1]}.`);
}

export async function addLinkAction(s: StorePage): Promise<void> {
  const menu = await mainMenu(s);
  const typed = (s.form.get('url') ?? '').trim();
  const url = typed || (s.form.get('target') ?? '');
  const at = typed ? 'url' : 'target';
  if (!url) return menuPage(s, { add: formWithIssues(s.form, [{ path: 'target', message: 'Choose what the link goes to, or type an address below' }]) }, 400);
  const target = await linkTarget(s, url);
  const title = (s.form.get('title') ?? '').trim() || (target && 'title' in target ? target.title : '');
  const items = menu?.items ?? [];
  const checked = checkedMenu(
    menu?.title ?? 'Main menu',
    [...items, { title, url }],
    (n, key) => (key === 'url' ? at : key),
    target && 'problem' in target ? [{ path: at, message: target.problem }] : [],
  );
  if (!checked.data) return menuPage(s, { add: formWithIssues(s.form, checked.issues, new Set(['title', at])) }, 400);
  await putMenu(s.platform, s.store.id, MAIN_MENU, checked.data);
  s.seeOther(storePath(s.store, '/content/menu'), `The link “${title}” is added.`);
}
