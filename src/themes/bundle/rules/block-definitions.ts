import { entries, isObj, quote } from '../json.js';
import type { BundleRule } from '../rule.js';

/** spec 7: a block map key that differs from block.type is refused at blocks.<key>.type. */
export const blockDefinitions: BundleRule = {
  code: 'block_definitions',
  blocking: true,
  description: "Each block definition's type equals its key in blocks (blocks are keyed by type).",
  run(bundle, report) {
    for (const [key, block] of entries(bundle.blocks)) {
      if (isObj(block) && typeof block.type === 'string' && block.type !== key) {
        report(`blocks.${key}.type`, `must equal its key ${quote(key)} (blocks are keyed by type), not ${quote(block.type)}`);
      }
    }
  },
};
