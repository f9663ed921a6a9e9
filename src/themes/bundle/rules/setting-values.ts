import type { BundleRule } from '../rule.js';
import { isHostile } from '../rule.js';
import { valueProblem } from '../settings.js';

export const settingValues: BundleRule = {
  code: 'setting_values',
  blocking: true,
  description:
    "Every settings object (settings_data and its presets, section and block defaults and presets, a template's section and block settings): storable keys, each a setting of its owner, with a valid value.",
  run(bundle, report) {
    const assets = bundle.assetTypes();
    for (const s of bundle.settingsObjects()) {
      for (const h of s.hostile) report(h.path, h.message);
      if (!s.fields) continue;
      for (const [key, value] of Object.entries(s.value)) {
        const at = `${s.path}.${key}`;
        if (isHostile(s.hostile, at)) continue;
        const field = s.fields.get(key);
        const problem = field ? valueProblem(field, value, assets) : `is not a setting of ${s.owner}`;
        if (problem) report(at, problem);
      }
    }
  },
};
