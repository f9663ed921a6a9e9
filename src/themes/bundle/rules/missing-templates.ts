import { isObj } from '../json.js';
import type { BundleRule } from '../rule.js';
import { TEMPLATE_KEYS } from '../types.js';

export const missingTemplates: BundleRule = {
  code: 'missing_templates',
  blocking: false,
  description: "A template the theme leaves out (home is required by the schema): its pages use the platform's fallback template.",
  run(bundle, report) {
    if (!isObj(bundle.raw.templates)) return;
    for (const key of TEMPLATE_KEYS) {
      if (key !== 'home' && !Object.hasOwn(bundle.templates, key)) report(`templates.${key}`, `is missing: ${key} pages use the platform's fallback template`);
    }
  },
};
