import { entries, isNum, isObj, list } from '../json.js';
import type { BundleRule, Report } from '../rule.js';
import { MAX_RANGE_STEPS, onStep, settingType, valueProblem } from '../settings.js';
import type { SettingType } from '../types.js';

/** Which keys of a setting field apply to which types; any other use is an issue. */
const TYPED_KEYS: readonly (readonly ['options' | 'min' | 'max' | 'step' | 'unit' | 'placeholder', readonly SettingType[]])[] = [
  ['options', ['select', 'radio']],
  ['min', ['range', 'number']],
  ['max', ['range', 'number']],
  ['step', ['range', 'number']],
  ['unit', ['range', 'number']],
  ['placeholder', ['text', 'textarea', 'richtext', 'url', 'number']],
];

export const settingFields: BundleRule = {
  code: 'setting_fields',
  blocking: true,
  description:
    "Setting field definitions: ids unique within their schema (the theme's groups share one), keys that apply to the type, range and number bounds and whole steps, unique option values, a valid default.",
  run(bundle, report) {
    const assets = bundle.assetTypes();
    const theme = new Map<string, string>();
    for (const { path, group } of bundle.settingGroups()) checkSchema(group.settings, `${path}.settings`, theme, assets, report);
    for (const [key, block] of entries(bundle.blocks))
      if (isObj(block)) checkSchema(block.settings_schema, `blocks.${key}.settings_schema`, new Map(), assets, report);
    for (const [key, section] of entries(bundle.sections)) {
      if (isObj(section)) checkSchema(section.settings_schema, `sections.${key}.settings_schema`, new Map(), assets, report);
    }
  },
};

/** One schema's fields; `firstAt`: where each id was first defined. */
function checkSchema(schema: unknown, path: string, firstAt: Map<string, string>, assets: ReadonlyMap<string, string>, report: Report): void {
  list(schema).forEach((f, i) => {
    if (!isObj(f)) return;
    const at = `${path}.${i}`;
    if (typeof f.id === 'string') {
      const first = firstAt.get(f.id);
      if (first !== undefined) report(`${at}.id`, `is the same id as ${first}.id (setting ids are unique within their schema)`);
      else firstAt.set(f.id, at);
    }
    const type = settingType(f);
    if (!type) return;
    for (const [key, types] of TYPED_KEYS) {
      if (f[key] !== undefined && !types.includes(type)) report(`${at}.${key}`, `does not apply to a ${type} setting (only to ${types.join(', ')})`);
    }
    if ((type === 'range' || type === 'number') && isNum(f.min) && isNum(f.max) && f.min >= f.max) report(`${at}.max`, `must be greater than min (${f.min})`);
    if (type === 'range' && isNum(f.min) && isNum(f.max) && isNum(f.step) && f.step > 0 && f.min < f.max) {
      const steps = (f.max - f.min) / f.step;
      if (!onStep(f.max, f.min, f.step)) report(`${at}.step`, `must divide max - min (${f.max - f.min}) into whole steps`);
      else if (steps + 1 > MAX_RANGE_STEPS) {
        report(`${at}.step`, `must give at most ${MAX_RANGE_STEPS} positions between min and max (it gives ${Math.round(steps) + 1})`);
      }
    }
    if (type === 'select' || type === 'radio') {
      const values = new Map<string, number>();
      list(f.options).forEach((o, j) => {
        if (!isObj(o) || typeof o.value !== 'string') return;
        const first = values.get(o.value);
        if (first !== undefined) report(`${at}.options.${j}.value`, `is the same value as options.${first}.value`);
        else values.set(o.value, j);
      });
    }
    if (typeof f.id !== 'string' || f.default === undefined) return;
    const problem = valueProblem({ id: f.id, type, raw: f }, f.default, assets);
    if (problem) report(`${at}.default`, problem);
  });
}
