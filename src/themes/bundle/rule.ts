import type { InputIssue } from '../../errors.js';
import { ownValue } from '../../own-keys.js';
import { unstorableJson } from '../../storable.js';
import { entries, isObj, list, quote, type Obj } from './json.js';
import { ASSET_CONTENT_TYPES } from './schema.js';
import { fieldsOf, isTranslatableValue, settingType, type Fields } from './settings.js';

/**
 * One bundle rule (docs/themes.md, Validation rules), in the shape of Shopify theme-tools'
 * checks: a code, whether its findings block the upload (issues) or only warn, a one-line
 * description, and `run`, which reports each finding at the path of the bundle it is about.
 * Each lives in its own file under rules/, listed in rules/index.ts.
 */
export type BundleRule = {
  readonly code: string;
  /** true: a finding is an issue and the bundle is refused; false: a warning, and the bundle is valid. */
  readonly blocking: boolean;
  readonly description: string;
  run(bundle: BundleCheck, report: Report): void;
};

export type Report = (path: string, message: string) => void;

/** A settings object (settings_data, a preset, defaults, a template's section or block) and the fields it is checked against. */
export type SettingsObject = { path: string; value: Obj; fields: Fields | undefined; owner: string; hostile: InputIssue[] };

/** A section of a template, with its definition when its type names one. */
export type TemplateSectionAt = { key: string; template: Obj; id: string; at: string; raw: Obj; type: string | undefined; def: Obj | undefined };

/** Whether `at`, or something under it, is among the unstorable paths. */
export const isHostile = (hostile: InputIssue[], at: string) => hostile.some((h) => h.path === at || h.path.startsWith(`${at}.`));

/** Any type in the `@app` namespace, well formed or not: never a block definition's (those start with a letter). */
export const isAppNamespace = (type: string) => type === '@app' || type.startsWith('@app/');

/** An app block's text settings and their longest text (docs/themes.md, App blocks). */
export const APP_BLOCK_TEXT_MAX: Record<'heading' | 'body' | 'cta_label', number> = { heading: 200, body: 2000, cta_label: 80 };

const THEME_SETTINGS = 'the theme settings (config.settings_schema)';

/**
 * A bundle as the rules read it: whatever its shape (each area is an empty object or list when
 * it is not one), and what several rules derive from it, computed once.
 */
export class BundleCheck {
  readonly package: Obj;
  readonly config: Obj;
  readonly settingsSchema: Obj;
  readonly settingsData: Obj;
  readonly renderer: Obj;
  readonly assets: unknown[];
  readonly sections: Obj;
  readonly blocks: Obj;
  readonly templates: Obj;
  private memo: {
    assetTypes?: Map<string, string>;
    settings?: SettingsObject[];
    templateSections?: TemplateSectionAt[];
    refs?: { path: string; value: string }[];
  } = {};

  constructor(readonly raw: Obj) {
    const area = (v: unknown): Obj => (isObj(v) ? v : {});
    this.package = area(raw.package);
    this.config = area(raw.config);
    this.settingsSchema = area(this.config.settings_schema);
    this.settingsData = area(this.config.settings_data);
    this.renderer = area(raw.renderer);
    this.assets = list(this.renderer.assets);
    this.sections = area(raw.sections);
    this.blocks = area(raw.blocks);
    this.templates = area(raw.templates);
  }

  /** Asset path → content type, of the assets whose content type fits their file extension (image settings, the Liquid files). */
  assetTypes(): ReadonlyMap<string, string> {
    if (this.memo.assetTypes) return this.memo.assetTypes;
    const types = new Map<string, string>();
    for (const a of this.assets) {
      if (!isObj(a) || typeof a.path !== 'string' || typeof a.content_type !== 'string') continue;
      const type = ownValue(ASSET_CONTENT_TYPES, a.content_type);
      const extension = /\.([A-Za-z0-9]+)$/.exec(a.path)?.[1]?.toLowerCase();
      if (type && extension && type.extensions.includes(extension)) types.set(a.path, a.content_type);
    }
    return (this.memo.assetTypes = types);
  }

  /** The theme settings' groups, each with its path. */
  settingGroups(): { path: string; group: Obj }[] {
    return list(this.settingsSchema.settings).flatMap((group, g) => (isObj(group) ? [{ path: `config.settings_schema.settings.${g}`, group }] : []));
  }

  /** The theme settings' usable fields (ids are unique across the groups; a later group's field is the one used). */
  themeFields(): Fields {
    return new Map(this.settingGroups().flatMap(({ group }) => [...fieldsOf(group.settings)]));
  }

  /** A section definition by type, when it is one. */
  sectionDef(type: string): Obj | undefined {
    return Object.hasOwn(this.sections, type) && isObj(this.sections[type]) ? this.sections[type] : undefined;
  }

  /** Every section of every template, in order. */
  templateSections(): TemplateSectionAt[] {
    this.memo.templateSections ??= entries(this.templates).flatMap(([key, template]) => {
      if (!isObj(template)) return [];
      return entries(template.sections).flatMap(([id, raw]) => {
        if (!isObj(raw)) return [];
        const type = typeof raw.type === 'string' ? raw.type : undefined;
        return [{ key, template, id, at: `templates.${key}.sections.${id}`, raw, type, def: type === undefined ? undefined : this.sectionDef(type) }];
      });
    });
    return this.memo.templateSections;
  }

  /** Every settings object and the fields its keys name, in the bundle's order. */
  settingsObjects(): SettingsObject[] {
    if (this.memo.settings) return this.memo.settings;
    const out: SettingsObject[] = [];
    const add = (value: unknown, fields: Fields | undefined, path: string, owner: string) => {
      if (isObj(value)) out.push({ path, value, fields, owner, hostile: unstorableJson(value, path) });
    };
    const themeFields = this.themeFields();
    add(this.settingsData.current, themeFields, 'config.settings_data.current', THEME_SETTINGS);
    for (const [name, values] of entries(this.settingsData.presets)) add(values, themeFields, `config.settings_data.presets.${name}`, THEME_SETTINGS);
    for (const [key, block] of entries(this.blocks)) {
      if (isObj(block)) add(block.defaults, fieldsOf(block.settings_schema), `blocks.${key}.defaults`, `block ${quote(key)}`);
    }
    for (const [key, section] of entries(this.sections)) {
      if (!isObj(section)) continue;
      const fields = fieldsOf(section.settings_schema);
      add(section.defaults, fields, `sections.${key}.defaults`, `section ${quote(key)}`);
      list(section.presets).forEach(
        (preset, i) => isObj(preset) && add(preset.settings, fields, `sections.${key}.presets.${i}.settings`, `section ${quote(key)}`),
      );
    }
    for (const s of this.templateSections()) {
      if (s.def) add(s.raw.settings, fieldsOf(s.def.settings_schema), `${s.at}.settings`, `section ${quote(s.type!)}`);
      for (const [blockId, block] of entries(s.raw.blocks)) {
        if (!isObj(block) || typeof block.type !== 'string' || isAppNamespace(block.type)) continue;
        const def = Object.hasOwn(this.blocks, block.type) ? this.blocks[block.type] : undefined;
        if (def !== undefined)
          add(block.settings, isObj(def) ? fieldsOf(def.settings_schema) : undefined, `${s.at}.blocks.${blockId}.settings`, `block ${quote(block.type)}`);
      }
    }
    return (this.memo.settings = out);
  }

  /**
   * Every string that may be a `t:` translation reference, where it is: names, labels and
   * descriptions of the schema, and the valid values of text settings and app block texts.
   */
  translatable(): { path: string; value: string }[] {
    if (this.memo.refs) return this.memo.refs;
    const refs: { path: string; value: string }[] = [];
    const ref = (path: string, value: unknown) => typeof value === 'string' && refs.push({ path, value });
    const schemaRefs = (schema: unknown, path: string) =>
      list(schema).forEach((f, i) => {
        if (!isObj(f)) return;
        const at = `${path}.${i}`;
        for (const key of ['label', 'info', 'placeholder', 'unit'] as const) ref(`${at}.${key}`, f[key]);
        list(f.options).forEach((o, j) => isObj(o) && ref(`${at}.options.${j}.label`, o.label));
        const type = settingType(f);
        if (type && typeof f.id === 'string' && isTranslatableValue({ id: f.id, type, raw: f }, f.default)) ref(`${at}.default`, f.default);
      });
    for (const { path, group } of this.settingGroups()) {
      ref(`${path}.label`, group.label);
      ref(`${path}.description`, group.description);
      schemaRefs(group.settings, `${path}.settings`);
    }
    for (const [key, block] of entries(this.blocks)) {
      if (!isObj(block)) continue;
      ref(`blocks.${key}.name`, block.name);
      ref(`blocks.${key}.description`, block.description);
      schemaRefs(block.settings_schema, `blocks.${key}.settings_schema`);
    }
    for (const [key, section] of entries(this.sections)) {
      if (!isObj(section)) continue;
      ref(`sections.${key}.name`, section.name);
      schemaRefs(section.settings_schema, `sections.${key}.settings_schema`);
      list(section.presets).forEach((preset, i) => isObj(preset) && ref(`sections.${key}.presets.${i}.name`, preset.name));
    }
    for (const s of this.settingsObjects()) {
      for (const [key, value] of Object.entries(s.value)) {
        const at = `${s.path}.${key}`;
        const field = s.fields?.get(key);
        if (field && !isHostile(s.hostile, at) && isTranslatableValue(field, value)) ref(at, value);
      }
    }
    for (const s of this.templateSections()) {
      for (const [blockId, block] of entries(s.raw.blocks)) {
        if (!isObj(block) || typeof block.type !== 'string' || !isAppNamespace(block.type) || !isObj(block.settings)) continue;
        const path = `${s.at}.blocks.${blockId}.settings`;
        const hostile = unstorableJson(block.settings, path);
        for (const [key, value] of Object.entries(block.settings)) {
          const max = Object.hasOwn(APP_BLOCK_TEXT_MAX, key) ? APP_BLOCK_TEXT_MAX[key as keyof typeof APP_BLOCK_TEXT_MAX] : undefined;
          if (max !== undefined && typeof value === 'string' && value.length <= max && !isHostile(hostile, `${path}.${key}`)) ref(`${path}.${key}`, value);
        }
      }
    }
    return (this.memo.refs = refs.filter((r) => r.value.startsWith('t:')));
  }
}
