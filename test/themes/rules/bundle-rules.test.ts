import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { BUNDLE_RULES } from '../../../src/themes/bundle/rules/index.js';
import { ROOT } from '../../../src/localdb/index.js';

describe('the bundle rules (src/themes/bundle/rules)', () => {
  const files = readdirSync(`${ROOT}/src/themes/bundle/rules`).filter((f) => f.endsWith('.ts') && f !== 'index.ts');

  it('lists each rule once, one file each, with its code, whether it blocks and a one-line description', () => {
    expect(BUNDLE_RULES.map((r) => r.code.replaceAll('_', '-')).sort()).to.deep.equal(files.map((f) => f.slice(0, -3)).sort());
    for (const rule of BUNDLE_RULES) {
      expect(rule.code).to.match(/^[a-z]+(_[a-z]+)*$/);
      expect(rule.blocking, rule.code).to.be.a('boolean');
      expect(rule.description, rule.code).to.match(/^\S[^\n]{10,300}$/);
    }
  });

  it('has a test beside the others for each rule', () => {
    const tests = readdirSync(`${ROOT}/test/themes/rules`).filter((f) => f.endsWith('.test.ts'));
    for (const file of files) expect(tests, file).to.include(file.replace(/\.ts$/, '.test.ts'));
  });
});
