import { expect } from 'chai';
import { compatibilityRange } from '../../../src/themes/bundle/rules/compatibility-range.js';
import { findings } from './run-rule.js';

describe('bundle rule compatibility_range', () => {
  it('takes a range that admits the renderer version', () => {
    for (const range of ['^1.0.0', '>=1.0.0 <2.0.0', '1.x'])
      expect(findings(compatibilityRange, (b) => (b.package.compatibility_range = range))).to.deep.equal([]);
  });

  it('refuses a range that is not semver, and one that leaves the renderer out', () => {
    expect(findings(compatibilityRange, (b) => (b.package.compatibility_range = 'soon'))).to.deep.equal([
      'package.compatibility_range: must be a semver range such as "^1.0.0" or ">=1.0.0 <2.0.0"',
    ]);
    expect(findings(compatibilityRange, (b) => (b.package.compatibility_range = '^3.0.0'))).to.deep.equal([
      'package.compatibility_range: must admit the renderer version 1.0.0 ("^3.0.0" does not)',
    ]);
  });
});
