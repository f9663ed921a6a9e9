import type { ThemeReviewCheck } from '../check.js';
import { checkLiquidSyntax } from '../liquid-syntax.js';

export const liquidSyntax: ThemeReviewCheck = {
  code: 'liquid_syntax',
  blocking: true,
  description:
    'Liquid themes: every .liquid asset within the Liquid bounds and parsed by liquidjs in a thread with a time limit, each error with its file, line and column.',
  appliesTo: (bundle) => bundle.renderer.engine === 'liquid',
  run: (platform, version) => checkLiquidSyntax(platform, version.bundle),
};
