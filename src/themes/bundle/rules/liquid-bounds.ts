import { checkLiquidBounds } from '../../../liquid-bounds.js';
import { isObj } from '../json.js';
import type { BundleRule } from '../rule.js';

/**
 * Read before anything parses the Liquid files: a file past the bounds is refused here, cheaply,
 * rather than parsed for seconds later.
 */
export const liquidBounds: BundleRule = {
  code: 'liquid_bounds',
  blocking: true,
  description: "Each .liquid asset within the Liquid bounds (src/liquid-bounds.ts: size, tags and outputs, nesting), and the theme's totals.",
  run(bundle, report) {
    const liquid = bundle.assets.flatMap((a, i) =>
      isObj(a) && typeof a.path === 'string' && a.path.endsWith('.liquid') && typeof a.content === 'string'
        ? [{ path: a.path, content: a.content, at: i }]
        : [],
    );
    const found = checkLiquidBounds(liquid);
    for (const file of liquid) {
      const problem = found.files.get(file.path);
      if (problem) report(`renderer.assets.${file.at}.content`, `${file.path} ${problem}`);
    }
    if (found.theme) report('renderer.assets', found.theme);
  },
};
