import { isDeepStrictEqual } from 'node:util';
import { liveRows } from '../../../apps/index.js';
import { listMedia } from '../../../media/index.js';
import { resolveReference, translator } from '../../../rendering/index.js';
import {
  editableInstall,
  editorState,
  SETTINGS_DATA_KEY,
  TEMPLATE_KEYS,
  type EditableTheme,
  type SettingField,
  type SettingsData,
  type Template,
  type TemplateKey,
} from '../../../themes/index.js';
import { storePath, type StorePage } from '../../request.js';
import type { ImageChoice, ShownField } from './fields.js';

/**
 * The theme editor's state for one request (docs/admin.md, The theme editor): the store's installed
 * theme the path names (`editableInstall`: another store's, or none, is the 404 page), the editor
 * state of the drafts API (`editorState`: every template live and draft, the theme settings), where
 * the merchant is (the template, the selected section or block), and the text of the theme in the
 * merchant's language.
 */

export type EditorPage = StorePage<{ storeId: string; themeId: string }>;

/** The section id that selects the theme settings (a template's section ids cannot start with `@`). */
export const THEME_SETTINGS = '@theme';

/** Where the editor is: a template, and the section (or the theme settings) and block selected. */
export type Selection = { template: TemplateKey; section: string | null; block: string | null };

/** One draft key's state: its content (the draft, or the live copy when there is none) and the version a save sends back. */
export type KeyState<T> = { content: T; live: T; hasDraft: boolean; version: number; updatedAt: string | null; differs: boolean };

export type Editor = {
  e: EditableTheme;
  name: string;
  isLive: boolean;
  templates: readonly TemplateKey[];
  at: Selection;
  template: KeyState<Template>;
  settings: KeyState<SettingsData>;
  /** A theme's text as the merchant reads it (their store's language, falling back to `en` as the renderer does). */
  resolve: (value: string) => string;
};

/** An object's own entry of a name (a section id, a type, a setting id): never a prototype's member. */
export const own = <T>(o: Record<string, T>, key: string): T | undefined => (Object.hasOwn(o, key) ? o[key] : undefined);

/** The editor's address for a selection (`template`, and the section and block when one is selected). */
export function editorPath(s: EditorPage, at: Partial<Selection> = {}, rest = ''): string {
  const q = new URLSearchParams();
  if (at.template) q.set('template', at.template);
  if (at.section) q.set('section', at.section);
  if (at.block) q.set('block', at.block);
  const query = q.toString();
  return storePath(s.store, `/themes/${s.params.themeId}/editor${rest}${query ? `?${query}` : ''}`);
}

const isTemplateKey = (k: string | undefined): k is TemplateKey => (TEMPLATE_KEYS as readonly string[]).includes(k ?? '');

/** The editor of the path's theme at the selection the request names (a GET's query, a form's fields): an unknown one falls back to what exists. */
export async function loadEditor(s: EditorPage, asked: { template?: string; section?: string; block?: string }): Promise<Editor> {
  const e = await editableInstall(s.platform, s.store, s.params.themeId);
  const state = await editorState(s.platform, s.store, e);
  const templates = TEMPLATE_KEYS.filter((k) => Object.hasOwn(state.templates, k));
  const key = isTemplateKey(asked.template) && templates.includes(asked.template) ? asked.template : (templates[0] ?? 'home');
  const t = state.templates[key];
  const live = (t?.live ?? { sections: {}, order: [] }) as Template;
  const template = keyState<Template>(live, t);
  const settings = keyState<SettingsData>(state.settings.live, state.settings);
  const inTemplate = asked.section ? own(template.content.sections, asked.section) : undefined;
  const section = asked.section === THEME_SETTINGS || inTemplate ? asked.section! : null;
  const block = inTemplate && asked.block && own(inTemplate.blocks, asked.block) ? asked.block : null;
  const translate = translator(e.bundle.locales, s.store.locale);
  return {
    e,
    name: e.bundle.package.name,
    isLive: state.theme.role === 'live',
    templates,
    at: { template: key, section, block },
    template,
    settings,
    resolve: (value) => String(resolveReference(value, translate)),
  };
}

function keyState<T>(live: T, d: { has_draft: boolean; draft: unknown; version: number; updated_at: string | null } | undefined): KeyState<T> {
  const content = d?.has_draft ? (d.draft as T) : live;
  return {
    content,
    live,
    hasDraft: d?.has_draft ?? false,
    version: d?.version ?? 0,
    updatedAt: d?.updated_at ?? null,
    differs: d?.has_draft === true && !isDeepStrictEqual(content, live),
  };
}

/** A schema's fields with their label, info, placeholder, unit and option labels in the merchant's language. */
export const shownFields = (ed: Editor, fields: readonly SettingField[]): ShownField[] =>
  fields.map((f) => ({
    ...f,
    label: ed.resolve(f.label),
    ...(f.info !== undefined ? { info: ed.resolve(f.info) } : {}),
    ...(f.placeholder !== undefined ? { placeholder: ed.resolve(f.placeholder) } : {}),
    ...(f.unit !== undefined ? { unit: ed.resolve(f.unit) } : {}),
    ...(f.options ? { options: f.options.map((o) => ({ value: o.value, label: ed.resolve(o.label) })) } : {}),
  }));

/** How many of the store's media an image setting offers (the newest first would need a sort the media list has not: the first ones). */
const MEDIA_OFFERED = 100;

/** What an image setting may be: the theme's own image assets, and the store's media images. */
export async function imageChoices(s: EditorPage, ed: Editor): Promise<ImageChoice[]> {
  const assets = ed.e.bundle.renderer.assets.filter((a) => a.content_type.startsWith('image/')).map((a) => ({ value: a.path, label: `Theme: ${a.path}` }));
  const media = await listMedia(s.platform, s.store.id, { limit: MEDIA_OFFERED });
  const images = media.items.filter((m) => m.content_type.startsWith('image/')).map((m) => ({ value: m.id, label: `Media: ${m.alt ?? m.filename}` }));
  return [...assets, ...images];
}

/** The app blocks the store may place (its enabled theme app block extensions), as block types `@app/<app>/<block>`. */
export async function appBlockChoices(s: EditorPage): Promise<{ type: string; label: string }[]> {
  const rows = await liveRows(s.platform, s.store.id, 'theme_app_block');
  return rows.map((r) => ({
    type: `@app/${r.app_handle}/${r.handle}`,
    label: `App: ${typeof r.config.heading === 'string' ? r.config.heading : r.handle} (${r.app_handle})`,
  }));
}

/** The draft key a selection saves: the theme settings', or the template's. */
export const draftKeyOf = (at: Selection) => (at.section === THEME_SETTINGS ? SETTINGS_DATA_KEY : at.template);
