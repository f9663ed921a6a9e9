import { unstorableJson } from '../../../storable.js';
import { entries, isObj, type Obj } from '../json.js';
import type { BundleRule, Report } from '../rule.js';
import { MAX_LOCALE_DEPTH, MAX_LOCALE_STRING } from '../schema.js';

export const localeDictionaries: BundleRule = {
  code: 'locale_dictionaries',
  blocking: true,
  description: `Each locale is a storable dictionary of strings (at most ${MAX_LOCALE_STRING} characters), nested at most ${MAX_LOCALE_DEPTH} levels.`,
  run(bundle, report) {
    for (const [code, dict] of entries(bundle.raw.locales)) {
      if (!isObj(dict)) continue;
      const hostile = unstorableJson(dict, `locales.${code}`);
      for (const h of hostile) report(h.path, h.message);
      if (hostile.length === 0) checkDictionary(dict, `locales.${code}`, 1, report);
    }
  },
};

function checkDictionary(dict: Obj, path: string, depth: number, report: Report): void {
  if (depth > MAX_LOCALE_DEPTH) return report(path, `must not nest deeper than ${MAX_LOCALE_DEPTH} levels`);
  for (const [key, value] of Object.entries(dict)) {
    const at = `${path}.${key}`;
    if (isObj(value)) checkDictionary(value, at, depth + 1, report);
    else if (typeof value !== 'string') report(at, 'must be a string or an object of translations');
    else if (value.length > MAX_LOCALE_STRING) report(at, `must be at most ${MAX_LOCALE_STRING} characters`);
  }
}
