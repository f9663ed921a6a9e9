import { entries, isObj, quote } from '../json.js';
import type { BundleRule } from '../rule.js';

/** Liquid themes need their layout (Shopify's `layout/theme.liquid`). */
export const LIQUID_LAYOUT_PATH = 'layout/theme.liquid';

export const liquidFiles: BundleRule = {
  code: 'liquid_files',
  blocking: true,
  description: `A Liquid theme (or a json-contract one that says it is liquid_ready) is liquid_ready and has ${LIQUID_LAYOUT_PATH} and each section's sections/<renderer_key>.liquid among its assets.`,
  run(bundle, report) {
    const { engine, liquid_ready } = bundle.renderer;
    if (engine === 'liquid' && liquid_ready === false) report('renderer.liquid_ready', 'must be true for a liquid theme');
    if (engine !== 'liquid' && !(engine === 'json-contract' && liquid_ready === true)) return;
    const assets = bundle.assetTypes();
    if (assets.get(LIQUID_LAYOUT_PATH) !== 'text/x-liquid') {
      report('renderer.assets', `must include ${LIQUID_LAYOUT_PATH} (text/x-liquid): the layout every page of a Liquid theme renders in`);
    }
    for (const [key, section] of entries(bundle.sections)) {
      if (!isObj(section)) continue;
      const rendererKey = typeof section.renderer_key === 'string' ? section.renderer_key : key;
      const file = `sections/${rendererKey}.liquid`;
      if (assets.get(file) !== 'text/x-liquid')
        report(`sections.${key}.renderer_key`, `names ${quote(rendererKey)}, but ${file} (text/x-liquid) is not among renderer.assets`);
    }
  },
};
