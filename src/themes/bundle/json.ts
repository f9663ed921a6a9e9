import { TEMPLATE_KEYS } from './types.js';

/**
 * Reading a bundle of any shape (the rules run over what the client sent, whatever the schema
 * said about it): each helper answers what has the shape it needs and nothing otherwise.
 */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const entries = (v: unknown): [string, unknown][] => (isObj(v) ? Object.entries(v) : []);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const quote = (s: string) => JSON.stringify(s);

/** JSON equality, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isObj(a) || !isObj(b)) return false;
  const pairs = Object.entries(a);
  return pairs.length === Object.keys(b).length && pairs.every(([k, v]) => Object.hasOwn(b, k) && sameJson(v, b[k]));
}

/** The string a dotted key names in a dictionary, if any. */
export function translate(dict: Obj, key: string): string | undefined {
  let at: unknown = dict;
  for (const part of key.split('.')) {
    if (!isObj(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return typeof at === 'string' ? at : undefined;
}

/** The bundle's JSON layout files (Liquid themes): JSON files in the folders that mirror bundle areas. */
export const isLayoutFile = (path: string) => path.endsWith('.json') && /^(config|templates|sections|blocks|locales)\//.test(path);

/** The bundle area a layout file mirrors, by its path. */
export function layoutArea(path: string, b: Obj, config: Obj): { name: string; value: unknown } | null {
  if (path === 'config/settings_data.json') return { name: 'config.settings_data', value: config.settings_data ?? { current: {}, presets: {} } };
  if (path === 'config/settings_schema.json') return { name: 'config.settings_schema', value: config.settings_schema };
  if (path === 'sections/manifest.json') return { name: 'sections', value: b.sections };
  if (path === 'blocks/definitions.json') return { name: 'blocks', value: b.blocks };
  const template = /^templates\/([^/]+)\.json$/.exec(path)?.[1];
  if (template !== undefined && (TEMPLATE_KEYS as readonly string[]).includes(template)) {
    return { name: `templates.${template}`, value: isObj(b.templates) && Object.hasOwn(b.templates, template) ? b.templates[template] : undefined };
  }
  const locale = /^locales\/([^/]+)\.json$/.exec(path)?.[1];
  if (locale !== undefined) return { name: `locales.${locale}`, value: isObj(b.locales) && Object.hasOwn(b.locales, locale) ? b.locales[locale] : undefined };
  return null;
}
