import { isLayoutFile, isObj, layoutArea, quote, sameJson } from '../json.js';
import type { BundleRule } from '../rule.js';

/**
 * The spec's package file layout (docs/themes.md, Liquid themes): the bundle's JSON areas are the
 * source of truth; a layout file sent as an asset must be JSON equal to its area as given.
 */
export const fileLayout: BundleRule = {
  code: 'file_layout',
  blocking: true,
  description:
    'A JSON file in config/, templates/, sections/, blocks/ or locales/ is a file of the theme layout, sent inline, holding the same JSON as its bundle area.',
  run(bundle, report) {
    bundle.assets.forEach((a, i) => {
      if (!isObj(a) || typeof a.path !== 'string' || !isLayoutFile(a.path)) return;
      const area = layoutArea(a.path, bundle.raw, bundle.config);
      const at = `renderer.assets.${i}`;
      if (!area) return report(`${at}.path`, `${quote(a.path)} is not a file of the theme layout (docs/themes.md, Liquid themes)`);
      if (area.value === undefined) return report(`${at}.path`, `${quote(a.path)} has no ${area.name} in the bundle to agree with`);
      if (typeof a.content !== 'string') return report(at, `${a.path} must be sent inline (content), so it can be checked against ${area.name}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(a.content);
      } catch {
        return report(`${at}.content`, `${a.path} is not valid JSON`);
      }
      if (!sameJson(parsed, area.value)) report(`${at}.content`, `${a.path} disagrees with ${area.name}: it must hold the same JSON`);
    });
  },
};
