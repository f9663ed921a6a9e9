import { entries, isObj, translate } from '../json.js';
import type { BundleRule } from '../rule.js';
import { translationKeys } from './translation-references.js';

export const translationFallbacks: BundleRule = {
  code: 'translation_fallbacks',
  blocking: false,
  description: 'A "t:" key another locale than en lacks: en is shown instead (reported once per locale and key).',
  run(bundle, report) {
    const warned = new Set<string>();
    for (const { path, key } of translationKeys(bundle)) {
      for (const [code, dict] of entries(bundle.raw.locales)) {
        if (code === 'en' || !isObj(dict) || translate(dict, key) !== undefined || warned.has(`${code}\u0000${key}`)) continue;
        warned.add(`${code}\u0000${key}`);
        report(`locales.${code}`, `t:${key} is missing (used at ${path}); en is shown instead`);
      }
    }
  },
};
