import type { z } from 'zod';
import { ListContentQuery } from '../../content/index.js';
import type { InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, textarea, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, confirmStep, emptyState, heading, link, table } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import type { Platform } from '../../platform.js';
import { shopUrl } from '../../shop/index.js';
import { checkbox } from '../discounts/inputs.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { contentTabs } from './tabs.js';

/**
 * The admin's pages and blog articles (docs/admin.md, Content): one kind of content each, listed a
 * page at a time over the API's cursors (all, published or hidden), created, edited and deleted
 * (after a confirm step) through the content service the REST API uses, with its schemas (the
 * form's fields are the API's body) and its sanitiser for the body. The two kinds differ only in
 * their names and the article's author and date, so they share these handlers as the REST API's
 * routes share `contentRoutes`.
 */

/** What pages and articles both have, as the content service presents them. */
type EntryView = { id: string; title: string; handle: string; body_html: string; published: boolean; updated_at: string };

export type EntryKind<V extends EntryView, C extends z.ZodType, U extends z.ZodType> = {
  tab: 'pages' | 'articles';
  /** `page`, `article`: the words of its headings and messages. */
  noun: string;
  title: string;
  lead: string;
  empty: string;
  /** The list's path under the store, and its entries' (`<items>/<id>`, `<items>/new`). */
  listPath: string;
  itemsPath: string;
  /** Where the shop shows an entry once published. */
  shopPath: (v: V) => string;
  list: (platform: Platform, storeId: string, query: ListContentQuery) => Promise<{ items: V[]; nextCursor: string | null }>;
  get: (platform: Platform, storeId: string, id: string) => Promise<V>;
  create: C;
  update: U;
  make: (platform: Platform, storeId: string, input: z.output<C>) => Promise<V>;
  change: (platform: Platform, storeId: string, id: string, input: z.output<U>) => Promise<V>;
  remove: (platform: Platform, storeId: string, id: string) => Promise<void>;
  /** The kind's own fields beyond title, handle, body and published. */
  extra: {
    names: readonly string[];
    values: (v: V) => [string, string][];
    /** The fields as the API's body, an issue at a field that is not what it takes; `current` on an edit. */
    body: (form: ReadonlyMap<string, string>, issues: InputIssue[], current: V | null) => Record<string, unknown>;
    markup: (form: FormState) => Markup;
    /** The list's line under an entry's title, and its date column. */
    detail: (v: V) => string;
    dateHeading: string;
    date: (v: V) => string | null;
  };
};

export type EntryPage = StorePage<{ storeId: string; entryId: string }>;
/** A kind's own fields, all that the form's parts need of it. */
type ExtraOf<V extends EntryView> = Pick<EntryKind<V, z.ZodType, z.ZodType>, 'extra'>;

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'true', label: 'Published' },
  { value: 'false', label: 'Hidden' },
] as const;

/** A time as its UTC day: a list's column stays narrow. */
const day = (iso: string | null) => (iso ? html`<time datetime="${iso}">${iso.slice(0, 10)}</time>` : null);
const stateBadge = (v: EntryView) => (v.published ? badge('published', 'ok') : badge('hidden'));
const inShop = (s: StorePage, path: string) => `${shopUrl(s.platform, s.ctx, s.store.subdomain)}${path.slice(1)}`;
const fieldsOf = <V extends EntryView>(kind: ExtraOf<V>) => new Set(['title', 'handle', 'body_html', 'published', ...kind.extra.names]);

export async function entriesPage<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(s: StorePage, kind: EntryKind<V, C, U>): Promise<void> {
  const query = parseQuery(s, ListContentQuery);
  const page = await kind.list(s.platform, s.store.id, query);
  const path = storePath(s.store, kind.listPath);
  const items = storePath(s.store, kind.itemsPath);
  const filters = html`<nav class="actions" aria-label="Show">
    ${FILTERS.map((f) => ((query.published ?? '') === f.value ? html`<strong>${f.label}</strong>` : html`<a href="${f.value ? `${path}?published=${f.value}` : path}">${f.label}</a>`))}
  </nav>`;
  const rows = page.items.map((v) => [
    html`${link(`${items}/${v.id}`, v.title)}<br /><span class="muted">${kind.extra.detail(v)}${
      v.published ? html` · ${link(inShop(s, kind.shopPath(v)), 'View in shop')}` : null
    }</span>`,
    stateBadge(v),
    day(kind.extra.date(v)),
  ]);
  const empty = query.published
    ? emptyState(`No ${query.published === 'true' ? 'published' : 'hidden'} ${kind.noun}s.`, { href: path, label: 'Show all' })
    : emptyState(kind.empty, { href: `${items}/new`, label: `Add ${kind.noun}` });
  const body = html`${heading('Content', kind.lead)}${contentTabs(s, kind.tab)}
    <p class="actions"><a class="button" href="${items}/new">Add ${kind.noun}</a></p>
    ${filters}
    ${table({ label: kind.title, headings: ['Title', 'Status', kind.extra.dateHeading], rows, empty })}${pager({
      path,
      params: { published: query.published, limit: s.ctx.query.limit ? query.limit : undefined },
      nextCursor: page.nextCursor,
      ...pagePosition(s),
    })}`;
  s.render(storePage(s, 'content', { title: kind.title, body }));
}

function entryForm<V extends EntryView>(s: StorePage, kind: ExtraOf<V>, form: FormState, action: string, button: string, creating: boolean): Markup {
  return html`<form class="card" method="post" action="${action}" novalidate>
    ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
    ${field(form, 'title', 'Title', { required: true })}
    ${field(form, 'handle', 'Handle', {
      hint: creating
        ? 'Its name in the shop’s addresses: lowercase letters, digits and hyphens; empty makes one from the title'
        : 'Its name in the shop’s addresses; links to the old one stop working when it changes',
      attrs: html`autocapitalize="none" spellcheck="false"`,
    })}
    ${textarea(form, 'body_html', 'Body', { rows: 12, hint: 'HTML: headings, paragraphs, lists, links, images, emphasis; scripts, styles and anything else unsafe are removed' })}
    ${kind.extra.markup(form)}${checkbox(form, 'published', 'Published: shown in the shop')}
    <button class="button" type="submit">${button}</button>
  </form>`;
}

/** The form as the API's body; a blank handle is none (made from the title on create, kept on edit). */
function entryBody<V extends EntryView>(s: StorePage, kind: ExtraOf<V>, issues: InputIssue[], current: V | null) {
  const handle = (s.form.get('handle') ?? '').trim();
  return {
    title: s.form.get('title') ?? '',
    ...(handle ? { handle } : {}),
    body_html: s.form.get('body_html') ?? '',
    published: s.form.get('published') === 'on',
    ...kind.extra.body(s.form, issues, current),
  };
}

export function newEntryPage<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(
  s: StorePage,
  kind: EntryKind<V, C, U>,
  form: FormState = blankForm(new Map([['published', 'on']])),
  status = 200,
): void {
  const items = storePath(s.store, kind.itemsPath);
  const body = html`<p><a href="${storePath(s.store, kind.listPath)}">« ${kind.title}</a></p>
    ${heading(`Add ${kind.noun}`)}${entryForm(s, kind, form, `${items}/new`, `Add ${kind.noun}`, true)}`;
  s.render(storePage(s, 'content', { title: `Add ${kind.noun}`, body }), status);
}

export async function createEntryAction<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(s: StorePage, kind: EntryKind<V, C, U>): Promise<void> {
  const issues: InputIssue[] = [];
  const parsed = kind.create.safeParse(entryBody(s, kind, issues, null));
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length || !parsed.success) return newEntryPage(s, kind, formWithIssues(s.form, issues, fieldsOf(kind)), 400);
  let made: V;
  try {
    made = await kind.make(s.platform, s.store.id, parsed.data);
  } catch (err) {
    return newEntryPage(s, kind, refusedForm(s.form, err, fieldsOf(kind), new Map([['handle_taken', 'handle']])), 409);
  }
  s.seeOther(storePath(s.store, `${kind.itemsPath}/${made.id}`), `The ${kind.noun} “${made.title}” is added.`);
}

/** An entry as the form's values. */
const entryValues = <V extends EntryView>(kind: ExtraOf<V>, v: V) =>
  new Map([['title', v.title], ['handle', v.handle], ['body_html', v.body_html], ['published', v.published ? 'on' : ''], ...kind.extra.values(v)]);

export async function entryPage<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(
  s: EntryPage,
  kind: EntryKind<V, C, U>,
  form?: FormState,
  status = 200,
): Promise<void> {
  const v = await kind.get(s.platform, s.store.id, s.params.entryId);
  const at = storePath(s.store, `${kind.itemsPath}/${v.id}`);
  const body = html`<p><a href="${storePath(s.store, kind.listPath)}">« ${kind.title}</a></p>
    ${heading(v.title)}
    <p class="actions">${stateBadge(v)}<span class="muted">${kind.shopPath(v)}</span>${v.published ? link(inShop(s, kind.shopPath(v)), 'View in shop') : null}</p>
    ${entryForm(s, kind, form ?? blankForm(entryValues(kind, v)), at, 'Save', false)}
    <p><a class="button button--danger" href="${at}/delete">Delete ${kind.noun}</a></p>`;
  s.render(storePage(s, 'content', { title: v.title, body }), status);
}

export async function updateEntryAction<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(s: EntryPage, kind: EntryKind<V, C, U>): Promise<void> {
  const current = await kind.get(s.platform, s.store.id, s.params.entryId);
  const issues: InputIssue[] = [];
  const parsed = kind.update.safeParse(entryBody(s, kind, issues, current));
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length || !parsed.success) return entryPage(s, kind, formWithIssues(s.form, issues, fieldsOf(kind)), 400);
  try {
    await kind.change(s.platform, s.store.id, current.id, parsed.data);
  } catch (err) {
    return entryPage(s, kind, refusedForm(s.form, err, fieldsOf(kind), new Map([['handle_taken', 'handle']])), 409);
  }
  s.seeOther(storePath(s.store, `${kind.itemsPath}/${current.id}`), `The ${kind.noun} is saved.`);
}

export async function confirmDeleteEntry<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(s: EntryPage, kind: EntryKind<V, C, U>): Promise<void> {
  const v = await kind.get(s.platform, s.store.id, s.params.entryId);
  const at = storePath(s.store, `${kind.itemsPath}/${v.id}`);
  const body = confirmStep({
    question: `Delete the ${kind.noun} “${v.title}”?`,
    detail: `It leaves the shop at once, links to it (such as the main menu’s) stop working, and its handle ${v.handle} is free again. To keep it out of the shop for now, clear Published instead. This cannot be undone.`,
    action: `${at}/delete`,
    csrf: s.viewer.csrf,
    button: `Delete the ${kind.noun}`,
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'content', { title: `Delete the ${kind.noun}?`, body }));
}

export async function deleteEntryAction<V extends EntryView, C extends z.ZodType, U extends z.ZodType>(s: EntryPage, kind: EntryKind<V, C, U>): Promise<void> {
  const v = await kind.get(s.platform, s.store.id, s.params.entryId);
  await kind.remove(s.platform, s.store.id, v.id);
  s.seeOther(storePath(s.store, kind.listPath), `The ${kind.noun} “${v.title}” is deleted.`);
}
