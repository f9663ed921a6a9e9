import semver from 'semver';
import type { BundleRule } from '../rule.js';
import { RENDERER_VERSION } from '../types.js';

export const compatibilityRange: BundleRule = {
  code: 'compatibility_range',
  blocking: true,
  description: "The package's compatibility_range is a semver range that admits the platform's renderer version.",
  run({ package: p }, report) {
    if (typeof p.compatibility_range !== 'string' || p.compatibility_range.length > 100) return;
    const range = semver.validRange(p.compatibility_range);
    if (range === null) report('package.compatibility_range', `must be a semver range such as "^1.0.0" or ">=1.0.0 <2.0.0"`);
    else if (!semver.satisfies(RENDERER_VERSION, range)) {
      report('package.compatibility_range', `must admit the renderer version ${RENDERER_VERSION} ("${p.compatibility_range}" does not)`);
    }
  },
};
