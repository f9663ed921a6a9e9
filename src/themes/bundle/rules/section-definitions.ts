import { entries, isObj, quote, strings } from '../json.js';
import type { BundleRule } from '../rule.js';

/**
 * spec 7: a section map key that differs from section.type (at sections.<key>.type), and a
 * block_types entry naming an undefined block (at sections.<sectionType>.block_types).
 */
export const sectionDefinitions: BundleRule = {
  code: 'section_definitions',
  blocking: true,
  description: "Each section definition's type equals its key; its block_types name defined blocks, each once; its enabled_on names each template once.",
  run(bundle, report) {
    for (const [key, section] of entries(bundle.sections)) {
      if (!isObj(section)) continue;
      const path = `sections.${key}`;
      if (typeof section.type === 'string' && section.type !== key) {
        report(`${path}.type`, `must equal its key ${quote(key)} (sections are keyed by type), not ${quote(section.type)}`);
      }
      const named = new Set<string>();
      for (const type of strings(section.block_types)) {
        if (named.has(type)) report(`${path}.block_types`, `names block type ${quote(type)} twice`);
        else if (!Object.hasOwn(bundle.blocks, type)) report(`${path}.block_types`, `names block type ${quote(type)}, which has no definition in blocks`);
        named.add(type);
      }
      const enabled = strings(section.enabled_on);
      if (new Set(enabled).size !== enabled.length) report(`${path}.enabled_on`, 'names a template more than once');
    }
  },
};
