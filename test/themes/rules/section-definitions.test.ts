import { expect } from 'chai';
import { sectionDefinitions } from '../../../src/themes/bundle/rules/section-definitions.js';
import { findings } from './run-rule.js';

describe('bundle rule section_definitions (spec 7)', () => {
  it('finds nothing in the fixtures', () => expect(findings(sectionDefinitions)).to.deep.equal([]));

  it('a section map key that differs from section.type: sections.<key>.type', () => {
    expect(findings(sectionDefinitions, (b) => (b.sections.hero.type = 'banner'))).to.deep.equal([
      'sections.hero.type: must equal its key "hero" (sections are keyed by type), not "banner"',
    ]);
  });

  it('a block_types entry naming an undefined block, or one named twice: sections.<sectionType>.block_types', () => {
    expect(findings(sectionDefinitions, (b) => b.sections['rich-text'].block_types.push('quote'))).to.deep.equal([
      'sections.rich-text.block_types: names block type "quote", which has no definition in blocks',
    ]);
    expect(findings(sectionDefinitions, (b) => b.sections['rich-text'].block_types.push(b.sections['rich-text'].block_types[0]))).to.have.length(1);
  });

  it('enabled_on names each template once', () => {
    expect(findings(sectionDefinitions, (b) => (b.sections.hero.enabled_on = ['home', 'home']))).to.deep.equal([
      'sections.hero.enabled_on: names a template more than once',
    ]);
  });
});
