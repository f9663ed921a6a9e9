import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { ROOT } from '../../../src/localdb/index.js';
import { REVIEW_CHECKS } from '../../../src/themes/review/checks/index.js';

describe('the theme review checks (src/themes/review/checks)', () => {
  const files = readdirSync(`${ROOT}/src/themes/review/checks`).filter((f) => f.endsWith('.ts') && f !== 'index.ts');

  it('lists the public check names in their order, one file each', () => {
    expect(REVIEW_CHECKS.map((c) => c.code)).to.deep.equal([
      'bundle_schema_validation',
      'theme_package_persistence',
      'liquid_syntax',
      'settings_labels',
      'locale_coverage',
    ]);
    expect(REVIEW_CHECKS.map((c) => `${c.code.replaceAll('_', '-')}.ts`).sort()).to.deep.equal(files.sort());
    for (const check of REVIEW_CHECKS) expect(check.description, check.code).to.match(/^\S[^\n]{10,300}$/);
  });

  it('has a test beside the others for each check', () => {
    const tests = readdirSync(`${ROOT}/test/themes/review-checks`);
    for (const file of files) expect(tests, file).to.include(file.replace(/\.ts$/, '.test.ts'));
  });
});
