import { entries, strings } from '../json.js';
import type { BundleRule } from '../rule.js';

export const unrenderedContent: BundleRule = {
  code: 'unrendered_content',
  blocking: false,
  description: "A template's section missing from its order, or a section's block missing from its block_order: it is never rendered.",
  run(bundle, report) {
    for (const { key, template, id, at, raw } of bundle.templateSections()) {
      if (Array.isArray(template.order) && !strings(template.order).includes(id)) report(at, `is not in templates.${key}.order, so it is never rendered`);
      if (!Array.isArray(raw.block_order)) continue;
      const inOrder = new Set(strings(raw.block_order));
      for (const [blockId] of entries(raw.blocks))
        if (!inOrder.has(blockId)) report(`${at}.blocks.${blockId}`, `is not in ${at}.block_order, so it is never rendered`);
    }
  },
};
