import { MEDIA_ID_PATTERN } from './schema.js';
import { isNum, isObj, list, quote, type Obj } from './json.js';
import { SETTING_TYPES, type SettingType } from './types.js';

/**
 * Setting fields and their values (docs/themes.md, Validation rules): what a field of each type
 * accepts. The rules that check field definitions (setting-fields) and values (setting-values)
 * and the translation references in text values read them from here.
 */

/** The longest text each text setting type holds. */
export const TEXT_SETTING_MAX: Record<'text' | 'textarea' | 'richtext', number> = { text: 1000, textarea: 10_000, richtext: 20_000 };
/** A range slider's positions at most (Shopify's limit). */
export const MAX_RANGE_STEPS = 101;

/** A setting field usable for checking values: its id and type well formed, and the field as given. */
export type Field = { id: string; type: SettingType; raw: Obj };
export type Fields = Map<string, Field>;

const COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const MEDIA_ID = new RegExp(MEDIA_ID_PATTERN);

export const settingType = (f: Obj): SettingType | undefined =>
  typeof f.type === 'string' && (SETTING_TYPES as readonly string[]).includes(f.type) ? (f.type as SettingType) : undefined;

/** A schema's usable fields (the first of each id). */
export function fieldsOf(schema: unknown): Fields {
  const fields: Fields = new Map();
  for (const f of list(schema)) {
    if (!isObj(f)) continue;
    const type = settingType(f);
    if (type && typeof f.id === 'string' && !fields.has(f.id)) fields.set(f.id, { id: f.id, type, raw: f });
  }
  return fields;
}

export function onStep(value: number, base: number, step: number): boolean {
  const q = (value - base) / step;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

/** A link a setting may hold: absolute http(s), or a path on the store (`/collections/all`). */
export function isSettingUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (value.length === 0 || value.length > 2048 || /[\s\u0000-\u001f\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** An absolute https URL (a setting URL already: no credentials, no whitespace). */
export function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** A valid value of a text field, which may be a `t:` reference. */
export function isTranslatableValue(field: Field, value: unknown): value is string {
  return (
    (field.type === 'text' || field.type === 'textarea' || field.type === 'richtext') &&
    typeof value === 'string' &&
    value.length <= TEXT_SETTING_MAX[field.type]
  );
}

/**
 * What is wrong with one value of its field, or undefined: the field's type and constraints (a
 * field's own constraints are checked where it is defined). `assets`: the bundle's asset paths
 * and their content types, which image settings name.
 */
export function valueProblem(field: Field, value: unknown, assets: ReadonlyMap<string, string>): string | undefined {
  const f = field.raw;
  const of = `(${field.type} setting "${field.id}")`;
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'richtext': {
      if (typeof value !== 'string') return `must be a string ${of}`;
      const max = TEXT_SETTING_MAX[field.type];
      return value.length > max ? `must be at most ${max} characters ${of}` : undefined;
    }
    case 'color':
      return typeof value !== 'string' || !COLOR.test(value) ? `must be a colour #rgb, #rgba, #rrggbb or #rrggbbaa ${of}` : undefined;
    case 'image': {
      if (typeof value !== 'string') return `must be an asset path or a media id ${of}`;
      if (MEDIA_ID.test(value)) return undefined;
      const type = assets.get(value);
      if (type === undefined) return `must be the path of an image among renderer.assets or a media id; ${quote(value)} is neither ${of}`;
      return type.startsWith('image/') ? undefined : `names ${quote(value)}, which is ${type}, not an image ${of}`;
    }
    case 'select':
    case 'radio': {
      const values = list(f.options).flatMap((o) => (isObj(o) && typeof o.value === 'string' ? [o.value] : []));
      return typeof value !== 'string' || (values.length > 0 && !values.includes(value))
        ? `must be one of the options ${values.map(quote).join(', ')} ${of}`
        : undefined;
    }
    case 'toggle':
      return typeof value !== 'boolean' ? `must be true or false ${of}` : undefined;
    case 'range':
    case 'number': {
      if (!isNum(value)) return `must be a number ${of}`;
      if (isNum(f.min) && value < f.min) return `must be at least ${f.min} ${of}`;
      if (isNum(f.max) && value > f.max) return `must be at most ${f.max} ${of}`;
      if (isNum(f.step) && f.step > 0 && !onStep(value, isNum(f.min) ? f.min : 0, f.step))
        return `must be on a step of ${f.step} from ${isNum(f.min) ? f.min : 0} ${of}`;
      return undefined;
    }
    case 'url':
      return typeof value !== 'string' || !isSettingUrl(value) ? `must be an http(s) URL or a path starting with "/" ${of}` : undefined;
  }
}
