import type { Platform } from '../../platform.js';
import type { ThemeBundle } from '../bundle/types.js';
import type { ThemeVersionDocument } from '../packages/models.js';

/**
 * One automated check of a theme review (docs/themes.md, Review), in the shape of the bundle
 * rules (../bundle/rule.ts): its code (the public check name in review results, never renamed),
 * whether a finding blocks approval (`failed`) or only warns (`warning`), a one-line description,
 * and `run`, which answers the findings (none: `passed`). Each lives in its own file under
 * checks/, listed in checks/index.ts.
 */
export type ThemeReviewCheck = {
  readonly code: string;
  readonly blocking: boolean;
  readonly description: string;
  /** Whether the check runs for a bundle (absent: always). */
  appliesTo?(bundle: ThemeBundle): boolean;
  run(platform: Platform, version: ThemeVersionDocument): Promise<string[]> | string[];
};
