import { createHash } from 'node:crypto';
import { Ajv } from 'ajv';
import semver from 'semver';
import type { Config } from '../../config.js';
import { checkLiquidBounds } from '../../liquid-bounds.js';
import { ownValue } from '../../own-keys.js';
import { schemaIssue } from '../../schema-issues.js';
import { unstorableJson } from '../../storable.js';
import {
  isAppBlockType,
  ASSET_CONTENT_TYPES,
  BUNDLE_JSON_SCHEMA,
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_DEPTH,
  MAX_BUNDLE_NODES,
  MAX_LOCALE_DEPTH,
  MAX_LOCALE_STRING,
  MAX_TOTAL_ASSET_BYTES,
  MEDIA_ID_PATTERN,
  PACKAGE_DEFAULTS,
} from './schema.js';
import {
  BUNDLE_SCHEMA_VERSION,
  RENDERER_VERSION,
  SETTING_TYPES,
  TEMPLATE_KEYS,
  type AssetEntry,
  type BlockDef,
  type BundleValidation,
  type SectionDef,
  type SettingField,
  type SettingType,
  type Template,
  type TemplateKey,
  type ThemeBundle,
} from './types.js';

/**
 * Bundle validation (spec 2.5, 7; docs/themes.md, Validation rules): limits first (size, depth,
 * count, before anything walks the whole document), then the JSON Schema (bundle-schema.ts, every
 * shape problem at once), then the rules a schema cannot express (cross-references, each setting
 * type's constraints, values against their fields, `t:` references, assets, the Liquid file
 * layout), then normalisation (defaults filled). Issues are `path: message` strings, every one in
 * one pass; warnings never block.
 */

/** The longest text each text setting type holds. */
export const TEXT_SETTING_MAX: Record<'text' | 'textarea' | 'richtext', number> = { text: 1000, textarea: 10_000, richtext: 20_000 };
/** A range slider's positions at most (Shopify's limit). */
export const MAX_RANGE_STEPS = 101;
/** Liquid themes need their layout (Shopify's `layout/theme.liquid`). */
export const LIQUID_LAYOUT_PATH = 'layout/theme.liquid';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
const checkShape = ajv.compile(BUNDLE_JSON_SCHEMA);

/** What validation needs of the platform. No rule depends on the environment today. */
export type BundleContext = { config: Pick<Config, 'env'> };

type Issue = { path: string; message: string };
type Obj = Record<string, unknown>;
type Field = { id: string; type: SettingType; raw: Obj };
type Fields = Map<string, Field>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const entries = (v: unknown): [string, unknown][] => (isObj(v) ? Object.entries(v) : []);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string');
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const quote = (s: string) => JSON.stringify(s);
const COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const T_REF = /^t:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const MEDIA_ID = new RegExp(MEDIA_ID_PATTERN);
/** Any type in the `@app` namespace, well formed or not: never a block definition's (those start with a letter). */
const isAppNamespace = (type: string) => type === '@app' || type.startsWith('@app/');
/** The longest text of each app block text setting (docs/themes.md, App blocks). */
const APP_BLOCK_TEXT_MAX: Record<'heading' | 'body' | 'cta_label', number> = { heading: 200, body: 2000, cta_label: 80 };
const APP_BLOCK_KINDS = ['inline', 'iframe'];
/** Which keys of a setting field apply to which types; any other use is an issue. */
const TYPED_KEYS: readonly (readonly ['options' | 'min' | 'max' | 'step' | 'unit' | 'placeholder', readonly SettingType[]])[] = [
  ['options', ['select', 'radio']],
  ['min', ['range', 'number']],
  ['max', ['range', 'number']],
  ['step', ['range', 'number']],
  ['unit', ['range', 'number']],
  ['placeholder', ['text', 'textarea', 'richtext', 'url', 'number']],
];

/**
 * Validate and normalise a theme bundle: every issue in one pass. `bundle` is present only when
 * `ok`. Never throws, whatever `raw` is.
 */
export function validateBundle(raw: unknown, context: BundleContext): BundleValidation {
  void context;
  if (!isObj(raw)) return { ok: false, issues: ['bundle: must be a JSON object'], warnings: [] };
  const limit = checkLimits(raw);
  if (limit.length > 0) return { ok: false, issues: render(limit), warnings: [] };
  // A copy of plain JSON: nothing the caller holds is shared with the normalised bundle.
  let b: Obj;
  try {
    const json = JSON.stringify(raw);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > MAX_BUNDLE_BYTES) return { ok: false, issues: [`bundle: must be at most ${MAX_BUNDLE_BYTES} bytes as JSON (it is ${bytes})`], warnings: [] };
    const copy: unknown = JSON.parse(json);
    if (!isObj(copy)) return { ok: false, issues: ['bundle: must be a JSON object'], warnings: [] };
    b = copy;
  } catch {
    return { ok: false, issues: ['bundle: must be JSON (it holds a value JSON cannot carry)'], warnings: [] };
  }

  const v = new Validation(b);
  if (!checkShape(b)) v.issues.push(...(checkShape.errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames').map(schemaIssue));
  v.run();
  if (v.issues.length > 0) return { ok: false, issues: render(v.issues), warnings: renderWarnings(v.warnings) };
  return { ok: true, bundle: normalise(b), issues: [], warnings: renderWarnings(v.warnings) };
}

/** Depth and size, walked without recursion so neither a deep nor a wide document can exhaust the stack or the heap. */
function checkLimits(raw: Obj): Issue[] {
  const stack: [unknown, number][] = [[raw, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_BUNDLE_NODES) return [{ path: 'bundle', message: `must hold at most ${MAX_BUNDLE_NODES} values (objects, arrays, strings, numbers...)` }];
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BUNDLE_DEPTH) return [{ path: 'bundle', message: `must not nest objects and arrays deeper than ${MAX_BUNDLE_DEPTH} levels` }];
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return [];
}

/** The rules a schema cannot express, over a bundle of any shape (each rule looks only at what has the shape it needs). */
class Validation {
  readonly issues: Issue[] = [];
  readonly warnings: Issue[] = [];
  /** `t:` references: where each is used and the key it names. */
  private readonly refs: { path: string; key: string }[] = [];
  /** Asset path → content type, for image settings and the Liquid layout. */
  private readonly assets = new Map<string, string>();
  private readonly blockFields = new Map<string, Fields>();
  private readonly sectionFields = new Map<string, Fields>();

  constructor(private readonly b: Obj) {}

  run(): void {
    const b = this.b;
    this.checkPackage(isObj(b.package) ? b.package : {});
    const renderer = isObj(b.renderer) ? b.renderer : {};
    this.checkAssets(list(renderer.assets));
    this.checkLiquidBounds(list(renderer.assets));

    const config = isObj(b.config) ? b.config : {};
    const schema = isObj(config.settings_schema) ? config.settings_schema : {};
    const themeFields: Fields = new Map();
    const firstAt = new Map<string, string>();
    list(schema.settings).forEach((group, g) => {
      if (!isObj(group)) return;
      const path = `config.settings_schema.settings.${g}`;
      this.ref(`${path}.label`, group.label);
      this.ref(`${path}.description`, group.description);
      for (const [id, field] of this.checkFields(group.settings, `${path}.settings`, firstAt)) themeFields.set(id, field);
    });
    const data = isObj(config.settings_data) ? config.settings_data : {};
    this.checkValues(data.current, themeFields, 'config.settings_data.current', 'the theme settings (config.settings_schema)');
    for (const [name, values] of entries(data.presets)) {
      this.checkValues(values, themeFields, `config.settings_data.presets.${name}`, 'the theme settings (config.settings_schema)');
    }

    for (const [key, block] of entries(b.blocks)) if (isObj(block)) this.checkBlockDefinition(key, block);
    const blocks = isObj(b.blocks) ? b.blocks : {};
    for (const [key, section] of entries(b.sections)) if (isObj(section)) this.checkSectionDefinition(key, section, blocks);
    const sections = isObj(b.sections) ? b.sections : {};
    for (const [key, t] of entries(b.templates)) if (isObj(t)) this.checkTemplate(key, t, sections, blocks);
    for (const key of TEMPLATE_KEYS) {
      if (key !== 'home' && isObj(b.templates) && !Object.hasOwn(b.templates, key)) {
        this.warnings.push({ path: `templates.${key}`, message: `is missing: ${key} pages use the platform's fallback template` });
      }
    }

    this.checkLocales(b.locales);
    this.checkLiquid(renderer, sections);
    this.checkFileLayout(list(renderer.assets));
  }

  private checkPackage(p: Obj): void {
    const pricing = p.pricing_type ?? PACKAGE_DEFAULTS.pricing_type;
    if (isNum(p.price)) {
      if (pricing === 'free' && p.price !== 0) this.issues.push({ path: 'package.price', message: 'must be 0 for a free theme (pricing_type "free")' });
      if (pricing === 'paid' && p.price <= 0)
        this.issues.push({ path: 'package.price', message: 'must be more than 0 for a paid theme (pricing_type "paid")' });
      if (Math.abs(Math.round(p.price * 100) - p.price * 100) > 1e-6)
        this.issues.push({ path: 'package.price', message: 'must have at most two decimal places' });
    } else if (pricing === 'paid' && p.price === undefined) {
      this.issues.push({ path: 'package.price', message: 'is required for a paid theme (pricing_type "paid")' });
    }
    if (typeof p.compatibility_range === 'string' && p.compatibility_range.length <= 100) {
      const range = semver.validRange(p.compatibility_range);
      if (range === null) this.issues.push({ path: 'package.compatibility_range', message: `must be a semver range such as "^1.0.0" or ">=1.0.0 <2.0.0"` });
      else if (!semver.satisfies(RENDERER_VERSION, range)) {
        this.issues.push({
          path: 'package.compatibility_range',
          message: `must admit the renderer version ${RENDERER_VERSION} ("${p.compatibility_range}" does not)`,
        });
      }
    }
  }

  private checkAssets(assets: unknown[]): void {
    const seen = new Map<string, number>();
    let total = 0;
    assets.forEach((raw, i) => {
      if (!isObj(raw)) return;
      const path = `renderer.assets.${i}`;
      const a = raw as Partial<Record<keyof AssetEntry, unknown>>;
      if (typeof a.path === 'string') {
        const first = seen.get(a.path.toLowerCase());
        if (first !== undefined)
          this.issues.push({ path: `${path}.path`, message: `is the same path as renderer.assets.${first}.path (paths are compared ignoring case)` });
        else seen.set(a.path.toLowerCase(), i);
      }
      const type = typeof a.content_type === 'string' ? ownValue(ASSET_CONTENT_TYPES, a.content_type) : undefined;
      if (typeof a.path === 'string' && type && typeof a.content_type === 'string') {
        const extension = /\.([A-Za-z0-9]+)$/.exec(a.path)?.[1]?.toLowerCase();
        if (!extension || !type.extensions.includes(extension)) {
          this.issues.push({
            path: `${path}.content_type`,
            message: `${a.content_type} is for files ending ${type.extensions.map((e) => `.${e}`).join(' or ')}, not ${quote(a.path)}`,
          });
        } else this.assets.set(a.path, a.content_type);
      }
      const inline = a.content !== undefined;
      if (inline === (a.media_id !== undefined)) {
        this.issues.push({ path, message: 'must have exactly one of content (inline UTF-8 text) or media_id (an uploaded file)' });
      } else if (inline && type && !type.inline) {
        this.issues.push({ path: `${path}.content`, message: `${String(a.content_type)} is binary: upload it with POST /v1/media and give its media_id` });
      }
      if (typeof a.content === 'string') {
        const bytes = Buffer.from(a.content, 'utf8');
        if (isNum(a.size) && a.size !== bytes.length)
          this.issues.push({ path: `${path}.size`, message: `must be the content's length in UTF-8 bytes, ${bytes.length} (it says ${a.size})` });
        const sha = createHash('sha256').update(bytes).digest('hex');
        if (typeof a.sha256 === 'string' && a.sha256 !== sha)
          this.issues.push({ path: `${path}.sha256`, message: `does not match the content (its SHA-256 is ${sha})` });
      }
      if (isNum(a.size)) total += a.size;
    });
    if (total > MAX_TOTAL_ASSET_BYTES)
      this.issues.push({ path: 'renderer.assets', message: `must total at most ${MAX_TOTAL_ASSET_BYTES} bytes (they total ${total})` });
  }

  /**
   * The Liquid files' bounds (src/liquid-bounds.ts: size, tags and outputs, nesting; the theme's
   * totals), read before anything parses them: a file past them is refused here, cheaply, rather
   * than parsed for seconds later.
   */
  private checkLiquidBounds(assets: unknown[]): void {
    const liquid = assets.flatMap((a, i) =>
      isObj(a) && typeof a.path === 'string' && a.path.endsWith('.liquid') && typeof a.content === 'string'
        ? [{ path: a.path, content: a.content, at: i }]
        : [],
    );
    const report = checkLiquidBounds(liquid);
    for (const file of liquid) {
      const problem = report.files.get(file.path);
      if (problem) this.issues.push({ path: `renderer.assets.${file.at}.content`, message: `${file.path} ${problem}` });
    }
    if (report.theme) this.issues.push({ path: 'renderer.assets', message: report.theme });
  }

  /**
   * A settings_schema's fields: ids unique (within `firstAt`, shared by the theme's groups), each
   * type's own constraints, defaults valid. Answers the usable fields (id and type well formed).
   */
  private checkFields(raw: unknown, path: string, firstAt = new Map<string, string>()): Fields {
    const fields: Fields = new Map();
    list(raw).forEach((f, i) => {
      if (!isObj(f)) return;
      const at = `${path}.${i}`;
      if (typeof f.id === 'string') {
        const first = firstAt.get(f.id);
        if (first !== undefined) this.issues.push({ path: `${at}.id`, message: `is the same id as ${first}.id (setting ids are unique within their schema)` });
        else firstAt.set(f.id, at);
      }
      this.ref(`${at}.label`, f.label);
      this.ref(`${at}.info`, f.info);
      this.ref(`${at}.placeholder`, f.placeholder);
      this.ref(`${at}.unit`, f.unit);
      list(f.options).forEach((o, j) => isObj(o) && this.ref(`${at}.options.${j}.label`, o.label));
      if (typeof f.type !== 'string' || !(SETTING_TYPES as readonly string[]).includes(f.type)) return;
      const type = f.type as SettingType;
      for (const [key, types] of TYPED_KEYS) {
        if (f[key] !== undefined && !types.includes(type))
          this.issues.push({ path: `${at}.${key}`, message: `does not apply to a ${type} setting (only to ${types.join(', ')})` });
      }
      if ((type === 'range' || type === 'number') && isNum(f.min) && isNum(f.max) && f.min >= f.max) {
        this.issues.push({ path: `${at}.max`, message: `must be greater than min (${f.min})` });
      }
      if (type === 'range' && isNum(f.min) && isNum(f.max) && isNum(f.step) && f.step > 0 && f.min < f.max) {
        const steps = (f.max - f.min) / f.step;
        if (!onStep(f.max, f.min, f.step)) this.issues.push({ path: `${at}.step`, message: `must divide max - min (${f.max - f.min}) into whole steps` });
        else if (steps + 1 > MAX_RANGE_STEPS)
          this.issues.push({
            path: `${at}.step`,
            message: `must give at most ${MAX_RANGE_STEPS} positions between min and max (it gives ${Math.round(steps) + 1})`,
          });
      }
      if (type === 'select' || type === 'radio') {
        const values = new Map<string, number>();
        list(f.options).forEach((o, j) => {
          if (!isObj(o) || typeof o.value !== 'string') return;
          const first = values.get(o.value);
          if (first !== undefined) this.issues.push({ path: `${at}.options.${j}.value`, message: `is the same value as options.${first}.value` });
          else values.set(o.value, j);
        });
      }
      if (typeof f.id !== 'string') return;
      const field: Field = { id: f.id, type, raw: f };
      if (f.default !== undefined) this.checkValue(field, f.default, `${at}.default`);
      if (!fields.has(f.id)) fields.set(f.id, field);
    });
    return fields;
  }

  /** A settings object (settings_data, presets, defaults, a template's section or block): keys storable and known, values valid. */
  private checkValues(raw: unknown, fields: Fields | undefined, path: string, owner: string): void {
    if (!isObj(raw)) return;
    const hostile = unstorableJson(raw, path);
    this.issues.push(...hostile);
    const skip = new Set(hostile.map((h) => h.path));
    for (const [key, value] of Object.entries(raw)) {
      const at = `${path}.${key}`;
      if (skip.has(at) || [...skip].some((p) => p.startsWith(`${at}.`)) || !fields) continue;
      const field = fields.get(key);
      if (!field) this.issues.push({ path: at, message: `is not a setting of ${owner}` });
      else this.checkValue(field, value, at);
    }
  }

  /** One value against its field's type and constraints (a field's own constraints are checked where it is defined). */
  private checkValue(field: Field, value: unknown, path: string): void {
    const f = field.raw;
    const problem = (message: string) => this.issues.push({ path, message });
    switch (field.type) {
      case 'text':
      case 'textarea':
      case 'richtext': {
        if (typeof value !== 'string') return void problem(`must be a string (${field.type} setting "${field.id}")`);
        const max = TEXT_SETTING_MAX[field.type];
        if (value.length > max) return void problem(`must be at most ${max} characters (${field.type} setting "${field.id}")`);
        return void this.ref(path, value);
      }
      case 'color':
        if (typeof value !== 'string' || !COLOR.test(value)) problem(`must be a colour #rgb, #rgba, #rrggbb or #rrggbbaa (color setting "${field.id}")`);
        return;
      case 'image': {
        if (typeof value !== 'string') return void problem(`must be an asset path or a media id (image setting "${field.id}")`);
        if (MEDIA_ID.test(value)) return;
        const type = this.assets.get(value);
        if (type === undefined)
          problem(`must be the path of an image among renderer.assets or a media id; ${quote(value)} is neither (image setting "${field.id}")`);
        else if (!type.startsWith('image/')) problem(`names ${quote(value)}, which is ${type}, not an image (image setting "${field.id}")`);
        return;
      }
      case 'select':
      case 'radio': {
        const values = list(f.options).flatMap((o) => (isObj(o) && typeof o.value === 'string' ? [o.value] : []));
        if (typeof value !== 'string' || (values.length > 0 && !values.includes(value))) {
          problem(`must be one of the options ${values.map(quote).join(', ')} (${field.type} setting "${field.id}")`);
        }
        return;
      }
      case 'toggle':
        if (typeof value !== 'boolean') problem(`must be true or false (toggle setting "${field.id}")`);
        return;
      case 'range':
      case 'number': {
        if (!isNum(value)) return void problem(`must be a number (${field.type} setting "${field.id}")`);
        if (isNum(f.min) && value < f.min) return void problem(`must be at least ${f.min} (${field.type} setting "${field.id}")`);
        if (isNum(f.max) && value > f.max) return void problem(`must be at most ${f.max} (${field.type} setting "${field.id}")`);
        if (isNum(f.step) && f.step > 0 && !onStep(value, isNum(f.min) ? f.min : 0, f.step)) {
          problem(`must be on a step of ${f.step} from ${isNum(f.min) ? f.min : 0} (${field.type} setting "${field.id}")`);
        }
        return;
      }
      case 'url':
        if (typeof value !== 'string' || !isSettingUrl(value)) problem(`must be an http(s) URL or a path starting with "/" (url setting "${field.id}")`);
        return;
    }
  }

  private checkBlockDefinition(key: string, block: Obj): void {
    if (typeof block.type === 'string' && block.type !== key) {
      this.issues.push({ path: `blocks.${key}.type`, message: `must equal its key ${quote(key)} (blocks are keyed by type), not ${quote(block.type)}` });
    }
    this.ref(`blocks.${key}.name`, block.name);
    this.ref(`blocks.${key}.description`, block.description);
    const fields = this.checkFields(block.settings_schema, `blocks.${key}.settings_schema`);
    this.blockFields.set(key, fields);
    this.checkValues(block.defaults, fields, `blocks.${key}.defaults`, `block ${quote(key)}`);
  }

  private checkSectionDefinition(key: string, section: Obj, blocks: Obj): void {
    const path = `sections.${key}`;
    if (typeof section.type === 'string' && section.type !== key) {
      this.issues.push({ path: `${path}.type`, message: `must equal its key ${quote(key)} (sections are keyed by type), not ${quote(section.type)}` });
    }
    this.ref(`${path}.name`, section.name);
    const named = new Set<string>();
    for (const type of strings(section.block_types)) {
      if (named.has(type)) this.issues.push({ path: `${path}.block_types`, message: `names block type ${quote(type)} twice` });
      else if (!Object.hasOwn(blocks, type))
        this.issues.push({ path: `${path}.block_types`, message: `names block type ${quote(type)}, which has no definition in blocks` });
      named.add(type);
    }
    const fields = this.checkFields(section.settings_schema, `${path}.settings_schema`);
    this.sectionFields.set(key, fields);
    this.checkValues(section.defaults, fields, `${path}.defaults`, `section ${quote(key)}`);
    list(section.presets).forEach((preset, i) => {
      if (!isObj(preset)) return;
      this.ref(`${path}.presets.${i}.name`, preset.name);
      this.checkValues(preset.settings, fields, `${path}.presets.${i}.settings`, `section ${quote(key)}`);
    });
    const enabled = strings(section.enabled_on);
    if (new Set(enabled).size !== enabled.length) this.issues.push({ path: `${path}.enabled_on`, message: 'names a template more than once' });
  }

  private checkTemplate(key: string, t: Obj, sectionDefs: Obj, blockDefs: Obj): void {
    const path = `templates.${key}`;
    const sections = isObj(t.sections) ? t.sections : {};
    const ordered = new Set<string>();
    for (const id of strings(t.order)) {
      if (ordered.has(id)) this.issues.push({ path: 'template.order', message: `${path}.order names ${quote(id)} twice` });
      else if (!Object.hasOwn(sections, id))
        this.issues.push({ path: 'template.order', message: `${path}.order names ${quote(id)}, which is not a section of the ${key} template` });
      ordered.add(id);
    }
    for (const [id, raw] of Object.entries(sections)) {
      if (!isObj(raw)) continue;
      const at = `${path}.sections.${id}`;
      if (Array.isArray(t.order) && !ordered.has(id)) this.warnings.push({ path: at, message: `is not in ${path}.order, so it is never rendered` });
      const type = typeof raw.type === 'string' ? raw.type : undefined;
      const def = type !== undefined && Object.hasOwn(sectionDefs, type) && isObj(sectionDefs[type]) ? (sectionDefs[type] as Obj) : undefined;
      if (type !== undefined && !def)
        this.issues.push({ path: `${at}.type`, message: `names section type ${quote(type)}, which has no definition in sections` });
      if (def && Array.isArray(def.enabled_on) && !def.enabled_on.includes(key)) {
        this.issues.push({
          path: `${at}.type`,
          message: `section ${quote(type!)} is not enabled on the ${key} template (enabled_on: ${strings(def.enabled_on).join(', ')})`,
        });
      }
      if (def) this.checkValues(raw.settings, this.sectionFields.get(type!), `${at}.settings`, `section ${quote(type!)}`);
      const accepted = def ? strings(def.block_types) : [];
      const blocks = isObj(raw.blocks) ? raw.blocks : {};
      for (const [blockId, block] of Object.entries(blocks)) {
        if (!isObj(block) || typeof block.type !== 'string') continue;
        const blockAt = `${at}.blocks.${blockId}`;
        if (isAppNamespace(block.type)) {
          if (!isAppBlockType(block.type)) {
            this.issues.push({
              path: `${blockAt}.type`,
              message: `${quote(block.type)} is not an app block type: "@app" or "@app/<app handle>/<block>", each lowercase kebab-case of at most 64 characters`,
            });
          } else if (def && def.accepts_app_blocks !== true) {
            this.issues.push({
              path: `${blockAt}.type`,
              message: `app blocks are only allowed in sections with accepts_app_blocks (section ${quote(type!)} does not accept them)`,
            });
          }
          this.checkAppBlockSettings(block.settings, `${blockAt}.settings`);
          continue;
        }
        if (!Object.hasOwn(blockDefs, block.type)) {
          this.issues.push({ path: `${blockAt}.type`, message: `names block type ${quote(block.type)}, which has no definition in blocks` });
          continue;
        }
        if (accepted.length > 0 && !accepted.includes(block.type)) {
          this.issues.push({
            path: `${blockAt}.type`,
            message: `block type ${quote(block.type)} is not one section ${quote(type!)} accepts (block_types: ${accepted.join(', ')})`,
          });
        }
        this.checkValues(block.settings, this.blockFields.get(block.type), `${blockAt}.settings`, `block ${quote(block.type)}`);
      }
      const inOrder = new Set<string>();
      for (const blockId of strings(raw.block_order)) {
        if (inOrder.has(blockId)) this.issues.push({ path: `sections.${id}.block_order`, message: `${at}.block_order names ${quote(blockId)} twice` });
        else if (!Object.hasOwn(blocks, blockId))
          this.issues.push({
            path: `sections.${id}.block_order`,
            message: `${at}.block_order (${key} template) names ${quote(blockId)}, which is not a block of that section`,
          });
        inOrder.add(blockId);
      }
      if (Array.isArray(raw.block_order)) {
        for (const blockId of Object.keys(blocks)) {
          if (!inOrder.has(blockId)) this.warnings.push({ path: `${at}.blocks.${blockId}`, message: `is not in ${at}.block_order, so it is never rendered` });
        }
      }
    }
  }

  /**
   * An app block's settings (docs/themes.md, App blocks): it has no definition, so its fields are
   * the renderer's own: text, a call to action to an https URL or a store path, an https iframe.
   */
  private checkAppBlockSettings(raw: unknown, path: string): void {
    if (!isObj(raw)) return;
    const hostile = unstorableJson(raw, path);
    this.issues.push(...hostile);
    for (const [key, value] of Object.entries(raw)) {
      const at = `${path}.${key}`;
      if (hostile.some((h) => h.path === at || h.path.startsWith(`${at}.`))) continue;
      const problem = (message: string) => this.issues.push({ path: at, message });
      switch (key) {
        case 'heading':
        case 'body':
        case 'cta_label': {
          const max = APP_BLOCK_TEXT_MAX[key];
          if (typeof value !== 'string' || value.length > max) problem(`must be a string of at most ${max} characters (app block ${key})`);
          else this.ref(at, value);
          break;
        }
        case 'cta_href':
          if (typeof value !== 'string' || !isSettingUrl(value) || !(value.startsWith('/') || isHttpsUrl(value)))
            problem('must be an https URL or a path starting with "/" (app block cta_href)');
          break;
        case 'iframe_url':
          if (typeof value !== 'string' || !isSettingUrl(value) || !isHttpsUrl(value))
            problem('must be an https URL without credentials (app block iframe_url)');
          break;
        case 'kind':
          if (typeof value !== 'string' || !APP_BLOCK_KINDS.includes(value))
            problem(`must be one of ${APP_BLOCK_KINDS.map(quote).join(', ')} (app block kind)`);
          break;
        default:
          problem('is not a setting of an app block (heading, body, cta_label, cta_href, iframe_url, kind)');
      }
    }
  }

  /** Dictionaries of strings, storable; then every `t:` reference resolves in `en` (an issue) and in each other locale (a warning). */
  private checkLocales(locales: unknown): void {
    for (const [code, dict] of entries(locales)) {
      if (!isObj(dict)) continue;
      const hostile = unstorableJson(dict, `locales.${code}`);
      this.issues.push(...hostile);
      if (hostile.length === 0) this.checkDictionary(dict, `locales.${code}`, 1);
    }
    const all = isObj(locales) ? locales : {};
    const en = isObj(all.en) ? all.en : undefined;
    const warned = new Set<string>();
    for (const { path, key } of this.refs) {
      if (en && translate(en, key) === undefined) this.issues.push({ path, message: `t:${key} is not in the default locale en` });
      for (const [code, dict] of Object.entries(all)) {
        if (code === 'en' || !isObj(dict) || translate(dict, key) !== undefined || warned.has(`${code}\u0000${key}`)) continue;
        warned.add(`${code}\u0000${key}`);
        this.warnings.push({ path: `locales.${code}`, message: `t:${key} is missing (used at ${path}); en is shown instead` });
      }
    }
  }

  private checkDictionary(dict: Obj, path: string, depth: number): void {
    if (depth > MAX_LOCALE_DEPTH) return void this.issues.push({ path, message: `must not nest deeper than ${MAX_LOCALE_DEPTH} levels` });
    for (const [key, value] of Object.entries(dict)) {
      const at = `${path}.${key}`;
      if (isObj(value)) this.checkDictionary(value, at, depth + 1);
      else if (typeof value !== 'string') this.issues.push({ path: at, message: 'must be a string or an object of translations' });
      else if (value.length > MAX_LOCALE_STRING) this.issues.push({ path: at, message: `must be at most ${MAX_LOCALE_STRING} characters` });
    }
  }

  /** Liquid themes (and json-contract themes that say they are liquid_ready): the layout and each section's source. */
  private checkLiquid(renderer: Obj, sections: Obj): void {
    const engine = renderer.engine;
    if (engine === 'liquid' && renderer.liquid_ready === false) this.issues.push({ path: 'renderer.liquid_ready', message: 'must be true for a liquid theme' });
    const liquid = engine === 'liquid' || (engine === 'json-contract' && renderer.liquid_ready === true);
    if (!liquid) return;
    if (this.assets.get(LIQUID_LAYOUT_PATH) !== 'text/x-liquid') {
      this.issues.push({
        path: 'renderer.assets',
        message: `must include ${LIQUID_LAYOUT_PATH} (text/x-liquid): the layout every page of a Liquid theme renders in`,
      });
    }
    for (const [key, section] of entries(sections)) {
      if (!isObj(section)) continue;
      const rendererKey = typeof section.renderer_key === 'string' ? section.renderer_key : key;
      const file = `sections/${rendererKey}.liquid`;
      if (this.assets.get(file) !== 'text/x-liquid') {
        this.issues.push({
          path: `sections.${key}.renderer_key`,
          message: `names ${quote(rendererKey)}, but ${file} (text/x-liquid) is not among renderer.assets`,
        });
      }
    }
  }

  /**
   * The spec's package file layout (docs/themes.md, Liquid themes): the bundle's JSON areas are
   * the source of truth; a layout file sent as an asset must be JSON equal to its area as given.
   */
  private checkFileLayout(assets: unknown[]): void {
    const b = this.b;
    const config = isObj(b.config) ? b.config : {};
    assets.forEach((a, i) => {
      if (!isObj(a) || typeof a.path !== 'string' || !a.path.endsWith('.json')) return;
      if (!/^(config|templates|sections|blocks|locales)\//.test(a.path)) return;
      const area = layoutArea(a.path, b, config);
      const at = `renderer.assets.${i}`;
      if (!area)
        return void this.issues.push({ path: `${at}.path`, message: `${quote(a.path)} is not a file of the theme layout (docs/themes.md, Liquid themes)` });
      if (area.value === undefined)
        return void this.issues.push({ path: `${at}.path`, message: `${quote(a.path)} has no ${area.name} in the bundle to agree with` });
      if (typeof a.content !== 'string')
        return void this.issues.push({ path: at, message: `${a.path} must be sent inline (content), so it can be checked against ${area.name}` });
      let parsed: unknown;
      try {
        parsed = JSON.parse(a.content);
      } catch {
        return void this.issues.push({ path: `${at}.content`, message: `${a.path} is not valid JSON` });
      }
      if (!sameJson(parsed, area.value))
        this.issues.push({ path: `${at}.content`, message: `${a.path} disagrees with ${area.name}: it must hold the same JSON` });
    });
  }

  /** Note a `t:` reference, or its bad form. */
  private ref(path: string, value: unknown): void {
    if (typeof value !== 'string' || !value.startsWith('t:')) return;
    if (!T_REF.test(value))
      return void this.issues.push({ path, message: `${quote(value)} is not a translation reference: "t:" then a dotted key such as t:sections.hero.name` });
    this.refs.push({ path, key: value.slice(2) });
  }
}

/** The bundle area a layout file mirrors, by its path. */
function layoutArea(path: string, b: Obj, config: Obj): { name: string; value: unknown } | null {
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

/** JSON equality, key order ignored. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isObj(a) || !isObj(b)) return false;
  const entries = Object.entries(a);
  return entries.length === Object.keys(b).length && entries.every(([k, v]) => Object.hasOwn(b, k) && sameJson(v, b[k]));
}

/** The string a dotted key names in a dictionary, if any. */
function translate(dict: Obj, key: string): string | undefined {
  let at: unknown = dict;
  for (const part of key.split('.')) {
    if (!isObj(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return typeof at === 'string' ? at : undefined;
}

function onStep(value: number, base: number, step: number): boolean {
  const q = (value - base) / step;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

/** A link a setting may hold: absolute http(s), or a path on the store (`/collections/all`). */
function isSettingUrl(value: string): boolean {
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
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

// --- normalisation: a valid bundle, every field listed, defaults filled (docs/themes.md, Defaults)

function normalise(b: Obj): ThemeBundle {
  const out = normaliseAreas(b);
  // The layout files (docs/themes.md, Liquid themes) are stored as their normalised areas, so a
  // normalised bundle agrees with itself and validates again unchanged (the review re-validates it).
  for (const asset of out.renderer.assets) {
    if (asset.content === undefined || !asset.path.endsWith('.json')) continue;
    const area = layoutArea(asset.path, out as unknown as Obj, out.config as unknown as Obj);
    if (!area || area.value === undefined) continue;
    asset.content = JSON.stringify(area.value);
    const bytes = Buffer.from(asset.content, 'utf8');
    asset.size = bytes.length;
    asset.sha256 = createHash('sha256').update(bytes).digest('hex');
  }
  return out;
}

function normaliseAreas(b: Obj): ThemeBundle {
  const p = b.package as Obj;
  const config = b.config as Obj;
  const schema = config.settings_schema as Obj;
  const data = (config.settings_data ?? {}) as Obj;
  const renderer = b.renderer as Obj;
  const engine = renderer.engine as ThemeBundle['renderer']['engine'];
  return {
    schema_version: BUNDLE_SCHEMA_VERSION,
    package: {
      slug: p.slug as string,
      name: p.name as string,
      author_name: (p.author_name as string | undefined) ?? PACKAGE_DEFAULTS.author_name,
      site_types: (p.site_types as string[] | undefined) ?? [...PACKAGE_DEFAULTS.site_types],
      status: (p.status as string | undefined) ?? PACKAGE_DEFAULTS.status,
      pricing_type: (p.pricing_type as ThemeBundle['package']['pricing_type'] | undefined) ?? PACKAGE_DEFAULTS.pricing_type,
      price: (p.price as number | undefined) ?? PACKAGE_DEFAULTS.price,
      currency: (p.currency as string | undefined) ?? PACKAGE_DEFAULTS.currency,
      version: p.version as string,
      version_number: (p.version_number as number | undefined) ?? PACKAGE_DEFAULTS.version_number,
      release_status: (p.release_status as string | undefined) ?? PACKAGE_DEFAULTS.release_status,
      compatibility_range: (p.compatibility_range as string | undefined) ?? PACKAGE_DEFAULTS.compatibility_range,
    },
    config: {
      settings_schema: {
        schema_version: (schema.schema_version as string | undefined) ?? BUNDLE_SCHEMA_VERSION,
        settings: (schema.settings as Obj[]).map((g) => ({
          label: g.label as string,
          description: (g.description as string | undefined) ?? '',
          settings: (g.settings as Obj[]).map(normaliseField),
        })),
      },
      settings_data: { current: (data.current as Obj | undefined) ?? {}, presets: (data.presets as Record<string, Obj> | undefined) ?? {} },
    },
    templates: Object.fromEntries(Object.entries(b.templates as Obj).map(([key, t]) => [key, normaliseTemplate(t as Obj)])) as ThemeBundle['templates'],
    sections: Object.fromEntries(Object.entries(b.sections as Obj).map(([key, s]) => [key, normaliseSection(s as Obj)])),
    blocks: Object.fromEntries(Object.entries(b.blocks as Obj).map(([key, s]) => [key, normaliseBlock(s as Obj)])),
    locales: b.locales as ThemeBundle['locales'],
    renderer: {
      engine,
      renderer_version: RENDERER_VERSION,
      liquid_ready: (renderer.liquid_ready as boolean | undefined) ?? engine === 'liquid',
      assets: ((renderer.assets ?? []) as Obj[]).map((a) => ({
        path: a.path as string,
        content_type: a.content_type as string,
        size: a.size as number,
        sha256: a.sha256 as string,
        ...(a.content !== undefined ? { content: a.content as string } : { media_id: a.media_id as string }),
      })),
    },
  };
}

/** A field as given; select and radio default to their first option, toggle to false. */
function normaliseField(f: Obj): SettingField {
  const type = f.type as SettingType;
  const options = f.options as { value: string; label: string }[] | undefined;
  const fallback = type === 'toggle' ? false : (type === 'select' || type === 'radio') && options ? options[0]?.value : undefined;
  const field: SettingField = { id: f.id as string, type, label: f.label as string };
  const optional = ['info', 'options', 'min', 'max', 'step', 'unit', 'placeholder'] as const;
  for (const key of optional) if (f[key] !== undefined) (field as Record<string, unknown>)[key] = f[key];
  const value = f.default ?? fallback;
  if (value !== undefined) field.default = value;
  return field;
}

function normaliseTemplate(t: Obj): Template {
  const sections = Object.entries(t.sections as Obj).map(([id, raw]) => {
    const s = raw as Obj;
    const blocks = (s.blocks ?? {}) as Obj;
    return [
      id,
      {
        type: s.type as string,
        settings: (s.settings as Obj | undefined) ?? {},
        blocks: Object.fromEntries(
          Object.entries(blocks).map(([blockId, block]) => {
            const bl = block as Obj;
            return [
              blockId,
              { type: bl.type as string, settings: (bl.settings as Obj | undefined) ?? {}, disabled: (bl.disabled as boolean | undefined) ?? false },
            ];
          }),
        ),
        block_order: (s.block_order as string[] | undefined) ?? Object.keys(blocks),
        disabled: (s.disabled as boolean | undefined) ?? false,
      },
    ] as const;
  });
  return { sections: Object.fromEntries(sections), order: t.order as string[] };
}

function normaliseSection(s: Obj): SectionDef {
  return {
    type: s.type as string,
    name: s.name as string,
    renderer_key: (s.renderer_key as string | undefined) ?? (s.type as string),
    settings_schema: ((s.settings_schema ?? []) as Obj[]).map(normaliseField),
    defaults: (s.defaults as Obj | undefined) ?? {},
    block_types: (s.block_types as string[] | undefined) ?? [],
    accepts_app_blocks: (s.accepts_app_blocks as boolean | undefined) ?? false,
    presets: ((s.presets ?? []) as Obj[]).map((p) => ({ name: p.name as string, settings: (p.settings as Obj | undefined) ?? {} })),
    enabled_on: (s.enabled_on as TemplateKey[] | undefined) ?? [...TEMPLATE_KEYS],
  };
}

function normaliseBlock(s: Obj): BlockDef {
  return {
    type: s.type as string,
    name: s.name as string,
    description: (s.description as string | undefined) ?? '',
    settings_schema: ((s.settings_schema ?? []) as Obj[]).map(normaliseField),
    defaults: (s.defaults as Obj | undefined) ?? {},
  };
}

// --- issues in words

/** `path: message` strings (the root is `bundle`), each once, in the order found. */
function render(issues: Issue[]): string[] {
  return [...new Set(issues.map((i) => `${i.path || 'bundle'}: ${i.message}`))];
}
const renderWarnings = render;

// --- drafts (docs/themes.md, Editor and drafts)

/** The bundle's JSON layout files (Liquid themes): they mirror bundle areas, so a draft check leaves them out. */
const isLayoutFile = (path: string) => path.endsWith('.json') && /^(config|templates|sections|blocks|locales)\//.test(path);

export type DraftValidation = { ok: true; content: Template | ThemeBundle['config']['settings_data'] } | { ok: false; issues: string[] };

/**
 * A store's draft of one template (`key`), or of the theme settings (`settings_data`), checked by
 * the bundle's own rules: the installed bundle with that area replaced is validated whole, so the
 * issues are the upload's, at the same paths (`templates.<key>.sections.<id>.type`,
 * `config.settings_data.current.<id>`). The stored bundle is valid, so every issue is the draft's.
 * The content answered is normalised (defaults filled), as an upload's would be.
 */
export function validateDraft(bundle: ThemeBundle, key: TemplateKey | 'settings_data', content: unknown, context: BundleContext): DraftValidation {
  const settings = key === 'settings_data';
  const candidate = {
    ...bundle,
    config: settings ? { ...bundle.config, settings_data: content } : bundle.config,
    templates: settings ? bundle.templates : { ...bundle.templates, [key]: content },
    renderer: { ...bundle.renderer, assets: bundle.renderer.assets.filter((a) => !isLayoutFile(a.path)) },
  };
  const result = validateBundle(candidate, context);
  if (!result.ok || !result.bundle) return { ok: false, issues: result.issues };
  const normalised = settings ? result.bundle.config.settings_data : result.bundle.templates[key];
  return normalised ? { ok: true, content: normalised } : { ok: false, issues: [`templates.${key}: is required`] };
}
