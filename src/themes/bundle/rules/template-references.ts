import { entries, isObj, quote, strings } from '../json.js';
import { isAppNamespace, type BundleRule } from '../rule.js';

/**
 * spec 7, row by row, with the paths it gives: an order entry naming a missing section id
 * (template.order), a block_order entry naming a missing block id (sections.<sectionId>.block_order),
 * a section type with no definition (templates.<key>.sections.<id>.type), a block type with no
 * definition or outside the section's non-empty block_types (…blocks.<blockId>.type).
 */
export const templateReferences: BundleRule = {
  code: 'template_references',
  blocking: true,
  description:
    "A template's order, its sections' types and enabled_on, their blocks' types and block_types, and each block_order name what the bundle defines, each once.",
  run(bundle, report) {
    for (const [key, t] of entries(bundle.templates)) {
      if (!isObj(t)) continue;
      const sections = isObj(t.sections) ? t.sections : {};
      const ordered = new Set<string>();
      for (const id of strings(t.order)) {
        if (ordered.has(id)) report('template.order', `templates.${key}.order names ${quote(id)} twice`);
        else if (!Object.hasOwn(sections, id))
          report('template.order', `templates.${key}.order names ${quote(id)}, which is not a section of the ${key} template`);
        ordered.add(id);
      }
    }
    for (const { key, id, at, raw, type, def } of bundle.templateSections()) {
      if (type !== undefined && !def) report(`${at}.type`, `names section type ${quote(type)}, which has no definition in sections`);
      if (def && Array.isArray(def.enabled_on) && !def.enabled_on.includes(key)) {
        report(`${at}.type`, `section ${quote(type!)} is not enabled on the ${key} template (enabled_on: ${strings(def.enabled_on).join(', ')})`);
      }
      const accepted = def ? strings(def.block_types) : [];
      const blocks = isObj(raw.blocks) ? raw.blocks : {};
      for (const [blockId, block] of Object.entries(blocks)) {
        if (!isObj(block) || typeof block.type !== 'string' || isAppNamespace(block.type)) continue;
        const blockAt = `${at}.blocks.${blockId}`;
        if (!Object.hasOwn(bundle.blocks, block.type)) report(`${blockAt}.type`, `names block type ${quote(block.type)}, which has no definition in blocks`);
        else if (accepted.length > 0 && !accepted.includes(block.type)) {
          report(`${blockAt}.type`, `block type ${quote(block.type)} is not one section ${quote(type!)} accepts (block_types: ${accepted.join(', ')})`);
        }
      }
      const inOrder = new Set<string>();
      for (const blockId of strings(raw.block_order)) {
        if (inOrder.has(blockId)) report(`sections.${id}.block_order`, `${at}.block_order names ${quote(blockId)} twice`);
        else if (!Object.hasOwn(blocks, blockId)) {
          report(`sections.${id}.block_order`, `${at}.block_order (${key} template) names ${quote(blockId)}, which is not a block of that section`);
        }
        inOrder.add(blockId);
      }
    }
  },
};
